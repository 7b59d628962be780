/* capture.h - for the unit tests (C and CUDA): what a call writes on stderr, as text.
 *   struct captured c = capture_stderr();  ...the call...;  captured_text(&c, text, sizeof text);
 * A test program that cannot make its temporary file stops with exit 1. */
#ifndef MEMLAB_TEST_CAPTURE_H
#define MEMLAB_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct captured {
    FILE *log;
    int saved; /* the stderr to put back */
};

static struct captured capture_stderr(void)
{
    struct captured c;
    c.log = tmpfile();
    if (!c.log) {
        perror("capture_stderr: tmpfile");
        exit(1);
    }
    fflush(stderr);
    c.saved = dup(2);
    dup2(fileno(c.log), 2);
    return c;
}

/* stderr back as it was; text: what was written meanwhile (at most size - 1 bytes). */
static void captured_text(struct captured *c, char *text, size_t size)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->log);
    text[fread(text, 1, size - 1, c->log)] = '\0';
    fclose(c->log);
}

#endif
