// SPDX-License-Identifier: GPL-2.0
/*
 * hf_trace.c - the one place the tracepoints of hf_trace.h are defined.
 */
#define CREATE_TRACE_POINTS
#include "hf_trace.h"
