/**
 * The server settings every session of the apps starts with (libpq's `options`: `-c name=value`).
 * An `options` parameter in DATABASE_URL replaces them (node-postgres lets the URL's parameters win).
 *
 * `jit=off`: the apps send short OLTP statements, and PostgreSQL compiles a statement with LLVM
 * whenever its ESTIMATED cost passes `jit_above_cost` (100,000). Where a table was never analyzed
 * (autovacuum off: no statistics) a batched read of a few rows is estimated at hundreds of
 * thousands: EventStore.readStreams of 64 report streams ran in 1.4-3.4 ms without JIT and in
 * 8.3-8.5 ms with it (58 ms as a session's first, which loads LLVM), EXPLAIN ANALYZE on the bench
 * database after its end-to-end phase (issue 11). JIT pays off for long analytical queries, which
 * the apps never send.
 */
export const APP_SESSION_OPTIONS = '-c jit=off';

/**
 * The outbox relay's own session (outbox-relay.ts): the apps' settings, and no bitmap scans. Its read
 * walks the pending rows' partial index, which keeps an entry for every row published since the last
 * VACUUM; a plain index scan marks those dead once and then passes them without the heap, a bitmap
 * scan visits their heap pages on every read. The planner chose either by its estimates: on the bench
 * database after a full run (28,770 such entries, nothing pending) the read was a bitmap scan of 715
 * heap pages, 7.5–10 ms a read, and 3.2–3.4 ms as an index scan (issue 11).
 */
export const RELAY_SESSION_OPTIONS = `${APP_SESSION_OPTIONS} -c enable_bitmapscan=off`;
