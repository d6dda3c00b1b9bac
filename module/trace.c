// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - instantiates the "election" tracepoints of trace.h.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
