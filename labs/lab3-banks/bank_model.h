/* bank_model.h - lab 3's model of shared memory: 32 banks of 4-byte words.
 *
 * One warp-wide load is served in wavefronts (passes through the banks). The request is
 * cut into phases of 128 bytes: 32 threads of 4-byte words, 16 of 8-byte, 8 of 16-byte.
 * In a phase, threads that touch different 4-byte words of the same bank are served one
 * after another; threads that touch the same word share it. A phase therefore takes as
 * many wavefronts as its busiest bank has distinct words, and the request the sum over
 * its phases. Predicted time per request: one wavefront per SM clock.
 * Plain C, so it is checked without a GPU (tests/lab3.sh).
 */
#ifndef LAB3_BANK_MODEL_H
#define LAB3_BANK_MODEL_H

#include <stddef.h>

#define BANKS 32
#define BANK_WORD_BYTES 4
#define WAVEFRONT_BYTES (BANKS * BANK_WORD_BYTES)

/* Wavefronts for `lanes` threads (at most 32), thread t reading the word_bytes-wide word
 * number word_index[t] (4, 8 or 16 bytes, aligned to its size). */
static inline int bank_wavefronts(const size_t *word_index, int lanes, int word_bytes)
{
    int parts = word_bytes / BANK_WORD_BYTES;     /* 4-byte words per word */
    int per_phase = WAVEFRONT_BYTES / word_bytes; /* threads served per phase */
    int total = 0;
    for (int first = 0; first < lanes; first += per_phase) {
        size_t seen[BANKS][BANKS]; /* distinct 4-byte word addresses per bank */
        int count[BANKS] = {0}, busiest = 0;
        for (int t = first; t < first + per_phase && t < lanes; t++)
            for (int p = 0; p < parts; p++) {
                size_t word = word_index[t] * parts + p;
                int bank = (int)(word % BANKS), known = 0;
                for (int i = 0; i < count[bank] && !known; i++)
                    known = seen[bank][i] == word;
                if (!known)
                    seen[bank][count[bank]++] = word;
                if (count[bank] > busiest)
                    busiest = count[bank];
            }
        total += busiest;
    }
    return total;
}

#endif
