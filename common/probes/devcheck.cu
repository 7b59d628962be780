/* devcheck.cu - the pristine input's seal and gpu_sum's counter (see devcheck.h). */
#include "devcheck.h"

#include "gpu.h"
#include "rng.h"

/* One word's share of the hash: its value and index mixed with the key (splitmix64's
 * finaliser). The hash is the sum of the shares, so any order of summing gives it. */
static __host__ __device__ uint64_t keyed_share(uint32_t word, uint64_t i, uint64_t key)
{
    uint64_t z = (((uint64_t)word << 32) ^ i) + key;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct keyed_term {
    const uint32_t *words;
    uint64_t key;
    __device__ unsigned long long operator()(size_t i) const
    {
        return keyed_share(words[i], i, key);
    }
};

/* On every core: inputs of hundreds of MiB are sealed at the start of each run. */
static uint64_t host_keyed_hash(const uint32_t *w, size_t n, uint64_t key)
{
    uint64_t sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (size_t i = 0; i < n; i++)
        sum += keyed_share(w[i], i, key);
    return sum;
}

void pristine_upload(struct pristine *p, const uint32_t *host, size_t words, const char *what)
{
    p->dev = (uint32_t *)gpu_alloc(words * sizeof(uint32_t), what);
    p->host = host;
    p->words = words;
    CUDA_CHECK(cudaMemcpy(p->dev, host, words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    p->key = rng_unpredictable();
    p->hash = host_keyed_hash(host, words, p->key);
}

void pristine_free(struct pristine *p)
{
    gpu_free(p->dev);
    p->dev = NULL;
}

size_t pristine_restore_if_changed(struct pristine *p, const char *label)
{
    if (gpu_sum(p->words, keyed_term{p->dev, p->key}) == p->hash)
        return 0;
    memlab_warn("%s: wrote outside its arrays: the driver's own copy of the input changed", label);
    CUDA_CHECK(cudaMemcpy(p->dev, p->host, p->words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    return 1;
}

static unsigned long long *counter;

unsigned long long *devcheck_counter(void)
{
    if (!counter)
        counter = (unsigned long long *)gpu_alloc(sizeof *counter, "the mismatch counter");
    CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof *counter, 0));
    return counter;
}

unsigned long long devcheck_read_counter(void)
{
    unsigned long long value = 0;
    CUDA_CHECK(cudaMemcpy(&value, counter, sizeof value, cudaMemcpyDeviceToHost));
    return value;
}
