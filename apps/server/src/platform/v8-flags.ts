import { setFlagsFromString } from 'node:v8'

/**
 * V8 settings of the server process, applied as its first import (so every allocation site made
 * afterwards, and every worker thread, runs with them).
 *
 * Allocation-site pretenuring off. With it on, V8 watches the objects of each allocation site
 * early in the process's life and, when many of them survive a young-generation collection,
 * allocates that site's objects in the old generation from then on. Under concurrent relay load
 * the request objects of Node's HTTP stack and of the relay live a few milliseconds, across a
 * collection, so some of their sites get pretenured; dead objects then pile up in the old
 * generation, keep young ones alive through every scavenge and need major collections. Measured
 * on the relay benchmark's load (50 connections, streamed): about half of the gateway processes
 * fell into that state and stayed in it, with 1.7-1.8 MB surviving each scavenge instead of about
 * 0.4, about 9 µs more CPU per request in the collector's threads, 8-10 µs more on the event loop,
 * and 12-24 % less throughput. With it off, every process measured ran like the good ones.
 */
setFlagsFromString('--no-allocation-site-pretenuring')
