// SPDX-License-Identifier: GPL-2.0
/*
 * elec_macbench: what one frame's MAC costs in this kernel, for the two
 * candidates issue 13 names: SipHash-2-4 from lib/siphash.c (16-byte key,
 * 64-bit tag; what election.ko uses) and HMAC-SHA256 through the crypto
 * API (32-byte key, a synchronous shash transform allocated once).
 *
 * On load it times @iters MACs of each candidate over frames of the sizes
 * election.ko sends (a bare header with the trailer's counter, an ALIVE,
 * the largest ring-list frame of a 256-node group), best of @reps rounds,
 * prints one line per (candidate, size) and refuses to stay loaded
 * (-EAGAIN: nothing to unload). tests/bench/mac/run drives it in a VM.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/hash.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/siphash.h>
#include <linux/slab.h>

static unsigned int iters = 200000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "MACs per round and candidate");
static unsigned int reps = 5;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "rounds; the fastest is reported");

/* header 24 + counter 8; + ALIVE 12; + ring-list of 256 ids 1032 */
static const unsigned int sizes[] = { 32, 44, 1064 };

static u64 bench_siphash(const u8 *buf, unsigned int len)
{
	siphash_key_t key = { { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL } };
	u64 best = U64_MAX, sink = 0, t;
	unsigned int r, i;

	for (r = 0; r < reps; r++) {
		t = ktime_get_ns();
		for (i = 0; i < iters; i++)
			sink ^= siphash(buf, len, &key);
		t = ktime_get_ns() - t;
		best = min(best, t);
		cond_resched();
	}
	/* keep the loop: the result is used */
	if (sink == 0x5a5a5a5a5a5a5a5aULL)
		pr_info("improbable\n");
	return best;
}

static u64 bench_hmac(struct crypto_shash *tfm, const u8 *buf,
		      unsigned int len, int *err)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	u8 out[32], acc = 0;
	u64 best = U64_MAX, t;
	unsigned int r, i;

	desc->tfm = tfm;
	for (r = 0; r < reps; r++) {
		t = ktime_get_ns();
		for (i = 0; i < iters; i++) {
			*err = crypto_shash_digest(desc, buf, len, out);
			if (*err)
				return 0;
			acc ^= out[0];
		}
		t = ktime_get_ns() - t;
		best = min(best, t);
		cond_resched();
	}
	shash_desc_zero(desc);
	if (acc == 0xa5 && out[1] == 0x5a)
		pr_info("improbable\n");
	return best;
}

static int __init elec_macbench_init(void)
{
	static const u8 hkey[32] = { 1, 2, 3, 4 };
	struct crypto_shash *tfm;
	unsigned int k;
	int err = 0;
	u8 *buf;

	if (!iters || !reps)
		return -EINVAL;
	buf = kmalloc(2048, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (k = 0; k < 2048; k++)
		buf[k] = (u8)(k * 7);
	tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(tfm)) {
		pr_info("hmac(sha256): not available (%ld)\n", PTR_ERR(tfm));
		tfm = NULL;
	} else {
		err = crypto_shash_setkey(tfm, hkey, sizeof(hkey));
		pr_info("hmac(sha256) driver %s\n",
			crypto_tfm_alg_driver_name(crypto_shash_tfm(tfm)));
	}
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		u64 ns = bench_siphash(buf, sizes[k]);

		pr_info("mac siphash-2-4 bytes %u ns_per_frame %llu.%02llu\n",
			sizes[k], div_u64(ns, iters),
			div_u64(ns * 100, iters) % 100);
		if (!tfm || err)
			continue;
		ns = bench_hmac(tfm, buf, sizes[k], &err);
		if (err)
			pr_info("hmac(sha256): digest failed (%d)\n", err);
		else
			pr_info("mac hmac-sha256 bytes %u ns_per_frame %llu.%02llu\n",
				sizes[k], div_u64(ns, iters),
				div_u64(ns * 100, iters) % 100);
	}
	crypto_free_shash(tfm);
	kfree(buf);
	/* a benchmark, not a module to keep */
	return -EAGAIN;
}
module_init(elec_macbench_init);

MODULE_DESCRIPTION("election: per-frame cost of SipHash-2-4 and HMAC-SHA256");
MODULE_LICENSE("GPL");
