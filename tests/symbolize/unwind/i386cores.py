# SPDX-License-Identifier: MIT
"""i386cores.py - the i386 samples of a dwarf recording as core files for gdb
(tests/symbolize/unwind.sh).

perf cannot unwind a 32-bit process everywhere (a perf built with libunwind
for x86_64 only says "unwind: target platform=x86 is not supported" and
prints no user frame), so the unwinding of i386 samples is compared with
gdb instead: each sample becomes an ELF core holding its user registers, as
`perf script -F uregs` prints them, and its stack copy, the only memory a
sample has; gdb unwinds that with the binaries loaded where the maps say.

Usage: i386cores.py JSON UREGS OUTDIR VDSO
  JSON   perfconv to-json --full --symbols --no-inline output
  UREGS  perf script -F tid,time,uregs --ns output of the same file
  OUTDIR gets N.core per sample (N: the record index), mods (one
         "FILE OFFSET" line per mapped file, for add-symbol-file -o) and
         ours ("N ADDRESS" per unwound user frame, as to-json has them)
  VDSO   the recorded image of the process's [vdso32] ("" if none)
Prints the number of samples; exits 1 when a sample's registers in the
JSON differ from perf's.
"""
import base64
import json
import os
import re
import struct
import sys

# struct user_regs_struct (i386) in the order of elf_prstatus.pr_reg
PR_REG = ["BX", "CX", "DX", "SI", "DI", "BP", "AX", None, None, None, None, None,
          "IP", "CS", "FLAGS", "SP", "SS"]


def core(regs, sp, data):
    """An ELF32 core: one NT_PRSTATUS note and one PT_LOAD of the stack copy."""
    prstatus = bytearray(144)
    for i, name in enumerate(PR_REG):
        if name:
            struct.pack_into("<I", prstatus, 72 + 4 * i, regs.get(name, 0) & 0xffffffff)
    note = struct.pack("<III", 5, len(prstatus), 1) + b"CORE\0\0\0\0" + bytes(prstatus)
    phoff = 52
    noteoff = phoff + 2 * 32
    dataoff = noteoff + len(note)
    ehdr = b"\x7fELF\x01\x01\x01" + bytes(9) + struct.pack(
        "<HHIIIIIHHHHHH", 4, 3, 1, 0, phoff, 0, 0, 52, 32, 2, 40, 0, 0)
    phdrs = struct.pack("<IIIIIIII", 4, noteoff, 0, 0, len(note), 0, 4, 4)
    phdrs += struct.pack("<IIIIIIII", 1, dataoff, sp, 0, len(data), len(data), 6, 1)
    return ehdr + phdrs + note + data


def main():
    jpath, upath, out, vdso = sys.argv[1:5]
    perf_regs = {}
    for line in open(upath):
        m = re.match(r"\s*(\d+)\s+(\d+)\.(\d+):\s+ABI:1\s+(.*)", line)
        if m:
            key = (int(m.group(1)), int(m.group(2)) * 1000000000 + int(m.group(3)))
            perf_regs[key] = {k: int(v, 16) for k, v in re.findall(r"(\w+):(0x[0-9a-f]+)", m.group(4))}
    doc = json.load(open(jpath))
    pids = set()
    maps = {}
    ours = open(os.path.join(out, "ours"), "w")
    n = bad = 0
    for rec in doc["records"]:
        if rec.get("type") in ("MMAP", "MMAP2"):
            maps.setdefault(rec["pid"], []).append(rec)
            continue
        if rec.get("type") != "SAMPLE" or rec.get("regs_user", {}).get("abi") != 1:
            continue
        if "stack_user" not in rec:
            continue
        regs = {k: int(v, 16) for k, v in rec["regs_user"]["regs"].items()}
        theirs = perf_regs.get((rec["tid"], rec["time"]))
        if theirs != regs:
            bad += 1
            continue
        su = rec["stack_user"]
        data = base64.b64decode(su.get("data", ""))[:su.get("dyn_size", 0)]
        with open(os.path.join(out, "%d.core" % rec["index"]), "wb") as f:
            f.write(core(regs, regs["SP"] & 0xffffffff, data))
        for fr in rec.get("frames") or []:
            if not fr.get("dso", "").startswith("[kernel"):
                ours.write("%d %x\n" % (rec["index"], int(fr["ip"], 16)))
        pids.add(rec["pid"])
        n += 1
    ours.close()
    with open(os.path.join(out, "mods"), "w") as f:
        bases = {}
        for pid in pids:
            for mm in maps.get(pid, []):
                name = mm["filename"]
                if name == "[vdso]" and vdso:
                    bases[vdso] = int(mm["start"], 16)
                elif name.startswith("/") and int(mm["pgoff"], 16) == 0:
                    bases[name] = int(mm["start"], 16)
        for name, base in sorted(bases.items()):
            try:
                with open(name, "rb") as elf:
                    if elf.read(4) != b"\x7fELF":
                        continue
            except OSError:
                continue
            f.write("%s %#x\n" % (name, base))
    print(n)
    if bad:
        print("i386cores.py: %d samples with registers other than perf's" % bad, file=sys.stderr)
        sys.exit(1)


main()
