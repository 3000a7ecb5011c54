/*
 * fixture_bytes.h - the integer writers of the core's hand-written fixtures.
 *
 * A fixture is written once as a macro over W16/W32/W64 and instantiated
 * twice: with L16/L32/L64 (little-endian bytes) and B16/B32/B64
 * (big-endian bytes), each value as its bytes in an initializer list.
 */
#ifndef PD_TEST_FIXTURE_BYTES_H
#define PD_TEST_FIXTURE_BYTES_H

#include <stdbool.h>
#include <stdint.h>

#define L16(v) (uint8_t)((v) & 0xff), (uint8_t)(((v) >> 8) & 0xff)
#define L32(v) L16((uint32_t)(v) & 0xffff), L16(((uint32_t)(v) >> 16) & 0xffff)
#define L64(v) L32((uint64_t)(v) & 0xffffffffu), L32(((uint64_t)(v) >> 32) & 0xffffffffu)
#define B16(v) (uint8_t)(((v) >> 8) & 0xff), (uint8_t)((v) & 0xff)
#define B32(v) B16(((uint32_t)(v) >> 16) & 0xffff), B16((uint32_t)(v) & 0xffff)
#define B64(v) B32(((uint64_t)(v) >> 32) & 0xffffffffu), B32((uint64_t)(v) & 0xffffffffu)

/*
 * The _le fixture is in host order on a little-endian host; the swap flag
 * of each pass follows the host so that the suites also run big-endian.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE true
#else
#define HOST_BE false
#endif

/* The swap flag that reads a big-endian (_be) or little-endian (_le) fixture here. */
static inline bool fixture_swap(bool big_endian)
{
	return big_endian != HOST_BE;
}

#endif
