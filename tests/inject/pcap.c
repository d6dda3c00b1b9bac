// SPDX-License-Identifier: GPL-2.0
/*
 * elec-inject: pcap files (libpcap format, LINKTYPE_ETHERNET): read and write.
 */
#include "elec-inject.h"

/* ------------------------------------------------------------------ */
/* pcap files (libpcap format, LINKTYPE_ETHERNET)                      */

#define PCAP_MAGIC_US	0xa1b2c3d4u
#define PCAP_MAGIC_NS	0xa1b23c4du

static uint32_t sw32(uint32_t v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

void pcap_open_in(struct pcap_in *in, const char *path)
{
	uint32_t h[6];

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->f = fopen(path, "rb");
	if (!in->f)
		die_errno("%s", path);
	if (fread(h, sizeof(h), 1, in->f) != 1)
		die("%s: not a pcap file (shorter than its header)", path);
	if (h[0] == PCAP_MAGIC_US || h[0] == PCAP_MAGIC_NS) {
		in->ns = h[0] == PCAP_MAGIC_NS;
	} else if (h[0] == __builtin_bswap32(PCAP_MAGIC_US) ||
		   h[0] == __builtin_bswap32(PCAP_MAGIC_NS)) {
		in->swap = true;
		in->ns = h[0] == __builtin_bswap32(PCAP_MAGIC_NS);
	} else {
		die("%s: not a pcap file (magic %08x; pcapng is not read)",
		    path, h[0]);
	}
	if (sw32(h[5], in->swap) != 1)
		die("%s: link type %u, not Ethernet (1)", path,
		    sw32(h[5], in->swap));
}

/* the next frame into f; false at the end of the file */
bool pcap_next(struct pcap_in *in, struct frame *f, double *ts)
{
	uint32_t r[4], incl;
	size_t n;

	n = fread(r, 1, sizeof(r), in->f);
	if (n == 0 && feof(in->f))
		return false;
	if (n != sizeof(r))
		die("%s: frame %lu: truncated record header", in->path,
		    in->index + 1);
	incl = sw32(r[2], in->swap);
	if (incl > FRAME_MAX)
		die("%s: frame %lu: %u bytes, more than %d", in->path,
		    in->index + 1, incl, FRAME_MAX);
	if (incl && fread(f->b, incl, 1, in->f) != 1)
		die("%s: frame %lu: truncated", in->path, in->index + 1);
	f->len = incl;
	if (ts)
		*ts = sw32(r[0], in->swap) +
		      sw32(r[1], in->swap) / (in->ns ? 1e9 : 1e6);
	in->index++;
	return true;
}

void pcap_write_header(FILE *f)
{
	uint32_t h[6] = { PCAP_MAGIC_US, 2 | 4u << 16, 0, 0, 65535, 1 };

	if (fwrite(h, sizeof(h), 1, f) != 1)
		die_errno("writing the pcap header");
}

/* a new pcap file at @path, its header written */
FILE *pcap_create(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		die_errno("%s", path);
	pcap_write_header(f);
	return f;
}

/*
 * The frames of EtherType @ethertype in the pcap file at @path (at least
 * one), their number in *@n; the caller frees them
 */
struct frame *pcap_load(const char *path, uint16_t ethertype, size_t *n)
{
	struct frame *frames = NULL, f;
	size_t cap = 0;
	struct pcap_in in;

	*n = 0;
	pcap_open_in(&in, path);
	while (pcap_next(&in, &f, NULL)) {
		if (f.len < ETH_HDR || get16(f.b + 12) != ethertype)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			frames = realloc(frames, cap * sizeof(*frames));
			if (!frames)
				die("out of memory");
		}
		frames[(*n)++] = f;
	}
	fclose(in.f);
	if (!*n)
		die("%s: no frame of ethertype 0x%04x", path, ethertype);
	return frames;
}

void pcap_write(FILE *f, const uint8_t *b, size_t len)
{
	struct timeval tv;
	uint32_t r[4];

	gettimeofday(&tv, NULL);
	r[0] = (uint32_t)tv.tv_sec;
	r[1] = (uint32_t)tv.tv_usec;
	r[2] = r[3] = (uint32_t)len;
	if (fwrite(r, sizeof(r), 1, f) != 1 ||
	    (len && fwrite(b, len, 1, f) != 1))
		die_errno("writing a pcap record");
}
