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
 * generation, keep young ones alive through every scavenge and need major collections, and the
 * process runs slower for the rest of its life. Numbers: docs/decisions/v8-pretenuring.md.
 */
setFlagsFromString('--no-allocation-site-pretenuring')
