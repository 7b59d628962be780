/* check.c - one-line fatal and warning messages (see check.h). */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *memlab_program = "memlab";

static void vmessage(const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "%s: ", memlab_program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void memlab_die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    exit(code);
}

void memlab_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
}
