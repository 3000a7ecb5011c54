# SPDX-License-Identifier: MIT
"""gdbstacks.py - gdb's stacks of the cores i386cores.py wrote
(tests/symbolize/unwind.sh): gdb -nx -batch -x gdbstacks.py, with
  CORES     the directory of N.core files and their mods file
  OUT       gets "N ADDRESS" per frame, in perf's convention: the first
            frame is the pc, a caller its return address minus one, the
            frame a signal interrupted its pc; inline frames left out
  MAXSTACK  frames per sample (perf's default 127)

gdb finds a caller of code without call frame information by reading the
function's prologue; libdw (and perf with it) ends the stack there.  Such
a stack is ended after that frame here, and the number of them printed.

Where the stack copy ends, gdb leaves out the last caller whose return
address it read when it cannot read what that caller's own frame address
needs (main's realigned stack, a signal frame's context), or stops with
an error; that frame is added from the saved eip gdb reports where it
reports one, and the sample is marked with a line "N end": gdb could not
read on.
"""
import bisect
import os
import re
import subprocess

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set backtrace past-main on")
gdb.execute("set backtrace past-entry on")

cores = os.environ["CORES"]
ranges = []
for line in open(os.path.join(cores, "mods")):
    path, offset = line.split()
    gdb.execute("add-symbol-file %s -o %s" % (path, offset), to_string=True)
    dump = subprocess.run(["readelf", "--debug-dump=frames", path],
                          capture_output=True, text=True).stdout
    for lo, hi in re.findall(r"FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", dump):
        ranges.append((int(lo, 16) + int(offset, 16), int(hi, 16) + int(offset, 16)))
ranges.sort()
starts = [r[0] for r in ranges]
ends = []
for r in ranges:
    ends.append(max(r[1], ends[-1]) if ends else r[1])


def has_cfi(pc):
    i = bisect.bisect_right(starts, pc) - 1
    while i >= 0 and ends[i] > pc:
        if ranges[i][0] <= pc < ranges[i][1]:
            return True
        i -= 1
    return False


def saved_eip(frame):
    """The return address of a frame as gdb finds it saved, or None."""
    try:
        frame.select()
        m = re.search(r"\beip at (0x[0-9a-f]+)", gdb.execute("info frame", to_string=True))
        if not m:
            return None
        mem = gdb.selected_inferior().read_memory(int(m.group(1), 16), 4)
    except gdb.error:
        return None
    return int.from_bytes(bytes(mem), "little") or None


maxstack = int(os.environ.get("MAXSTACK", "127"))
no_cfi = 0
samples = sorted((int(n.split(".")[0]) for n in os.listdir(cores) if n.endswith(".core")))
with open(os.environ["OUT"], "w") as out:
    for idx in samples:
        gdb.execute("core-file %s/%d.core" % (cores, idx), to_string=True)
        frame = gdb.newest_frame()
        n = 0
        after_signal = False
        while frame is not None and n < maxstack:
            if frame.type() != gdb.INLINE_FRAME:
                pc = frame.pc()
                if n > 0 and not after_signal:
                    pc -= 1
                out.write("%d %x\n" % (idx, pc))
                n += 1
                after_signal = frame.type() == gdb.SIGTRAMP_FRAME
                if not has_cfi(pc):
                    no_cfi += 1
                    break
            failed = False
            try:
                older = frame.older()
            except gdb.error:
                older = None
                failed = True
            if older is None and (failed or frame.unwind_stop_reason() == gdb.FRAME_UNWIND_MEMORY_ERROR):
                out.write("%d end\n" % idx)
                if n < maxstack:
                    caller = saved_eip(frame)
                    if caller and frame.type() != gdb.SIGTRAMP_FRAME:
                        caller -= 1
                    if caller:
                        out.write("%d %x\n" % (idx, caller))
            frame = older
print("gdbstacks: %d samples, %d stacks end at a function without CFI" % (len(samples), no_cfi))
