/**
 * Schema migrations, applied in order; PRAGMA user_version counts how many have run.
 * Never edit a released step: add a new one, so a newer tool opens an older state file.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: bank runs, results history, run lock, document sessions and webhook events.
  `
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    mode TEXT NOT NULL,
    input_name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',   -- open | complete
    total_rows INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX runs_by_input ON runs (fingerprint, mode, id);

  -- One row per distinct account+IFSC of a run: duplicates in the file share it.
  CREATE TABLE run_keys (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    account TEXT NOT NULL,
    ifsc TEXT NOT NULL,
    first_idx INTEGER NOT NULL,
    status TEXT NOT NULL,                  -- PENDING IN_FLIGHT DONE DEFERRED FAILED UNCONFIRMED
    phase TEXT,                            -- pl | pd: the call IN_FLIGHT or last made
    source TEXT,                           -- api | reuse
    reason TEXT,
    result_id INTEGER REFERENCES results (id),
    request_id TEXT,
    due_at INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX run_keys_by_account ON run_keys (run_id, account);
  CREATE INDEX run_keys_by_status ON run_keys (run_id, status);

  -- Every final answer the API gave, kept for --reuse and changed_since.
  CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    account TEXT NOT NULL,
    ifsc TEXT NOT NULL,
    mode TEXT NOT NULL,                    -- pl | pd
    status TEXT NOT NULL,                  -- VERIFIED | NOT_VERIFIED | INVALID
    reason TEXT,
    beneficiary_name TEXT,
    transaction_remark TEXT,
    bank_name TEXT, bank_branch TEXT, bank_city TEXT, bank_district TEXT, bank_state TEXT,
    bank_micr TEXT, bank_iso3166 TEXT, bank_swift TEXT,
    bank_imps INTEGER, bank_neft INTEGER, bank_rtgs INTEGER, bank_upi INTEGER,
    request_id TEXT,
    verified_at INTEGER NOT NULL,
    changed_since TEXT
  );
  CREATE INDEX results_by_account ON results (account, ifsc, verified_at);

  CREATE TABLE run_lock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
  );

  CREATE TABLE doc_sessions (
    session_id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    pinless INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    fetched_at INTEGER,
    files TEXT                             -- JSON array of saved paths
  );

  CREATE TABLE webhook_events (
    id INTEGER PRIMARY KEY,
    received_at INTEGER NOT NULL,
    kind TEXT NOT NULL,                    -- success | failure
    session_id TEXT,
    digest TEXT NOT NULL UNIQUE,           -- sha256 of kind + body: a repeated delivery is recorded once
    payload TEXT NOT NULL
  );
  `,
  // 2: document-locker webhook listeners, so `docs init --listen URL` can find the secret
  // callback URLs of a running `docs listen` (and a restarted listener on the same address
  // keeps its secret, so callbacks of sessions started before the restart still arrive).
  `
  CREATE TABLE doc_listeners (
    listen_url TEXT PRIMARY KEY,           -- http://HOST:PORT the receiver is bound to
    public_url TEXT NOT NULL,              -- base URL the API is told to call (default listen_url)
    secret TEXT NOT NULL,                  -- path segment of both callback URLs
    success_url TEXT NOT NULL,
    failure_url TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    stopped_at INTEGER
  );
  CREATE INDEX doc_listeners_by_public ON doc_listeners (public_url);
  CREATE INDEX webhook_events_by_session ON webhook_events (session_id, received_at);
  CREATE INDEX doc_sessions_by_created ON doc_sessions (created_at);
  `,
  // 3: every status change paid for this index twice; nothing reads run_keys by status on a hot path.
  `DROP INDEX IF EXISTS run_keys_by_status;`,
  // 4: run_keys is stored in file order. Keyed by payee text, every new row, its IN_FLIGHT mark
  // and its answer each dirtied a random page (and a random page of an account index), and every
  // commit rewrote those pages to the WAL: most of a run's disk writes. Keyed by the row where the
  // payee first appears, a commit's updates land on the few pages of the rows being worked on;
  // the one random index left (by payee) is written once per payee and also serves the account
  // deferral. The key text was account|ifsc, both of which are columns.
  `
  CREATE TABLE run_keys_v4 (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    first_idx INTEGER NOT NULL,            -- the data row (1-based) where this account+IFSC first appears
    account TEXT NOT NULL,
    ifsc TEXT NOT NULL,
    status TEXT NOT NULL,                  -- PENDING IN_FLIGHT DONE DEFERRED FAILED UNCONFIRMED
    phase TEXT,                            -- pl | pd: the call IN_FLIGHT or last made
    source TEXT,                           -- api | reuse
    reason TEXT,
    result_id INTEGER REFERENCES results (id),
    request_id TEXT,
    due_at INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, first_idx)
  ) WITHOUT ROWID;
  INSERT INTO run_keys_v4 (run_id, first_idx, account, ifsc, status, phase, source, reason, result_id, request_id, due_at, attempts, updated_at)
    SELECT run_id, first_idx, account, ifsc, status, phase, source, reason, result_id, request_id, due_at, attempts, updated_at FROM run_keys;
  DROP TABLE run_keys;
  ALTER TABLE run_keys_v4 RENAME TO run_keys;
  CREATE UNIQUE INDEX run_keys_by_payee ON run_keys (run_id, account, ifsc);
  `,
  // 5: what a run did, kept for its report (src/report/): one row per run with how its last
  // invocation ended (exit code, calls, spend, calls avoided by reason, retries by cause) and
  // per-second buckets of calls, retries and upstream errors. Counters are kept in memory and
  // written with the group commit (src/state/run-stats.ts): aggregates, never a row per call.
  `
  CREATE TABLE run_stats (
    run_id INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    invocations INTEGER NOT NULL DEFAULT 1,
    started_at INTEGER NOT NULL,           -- the last invocation's start
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,                   -- NULL while it runs, or when it was killed
    exit_code INTEGER,
    stopped TEXT,                          -- signal | breaker | auth | max-calls | max-spend | fatal
    message TEXT,
    resumed INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER,
    calls_pl INTEGER NOT NULL DEFAULT 0,
    calls_pd INTEGER NOT NULL DEFAULT 0,
    spend REAL NOT NULL DEFAULT 0,
    rows_out INTEGER NOT NULL DEFAULT 0,
    statuses TEXT,                         -- JSON: rows by status
    name_match TEXT,                       -- JSON: rows by name verdict
    avoided TEXT,                          -- JSON: calls avoided by reason
    retries TEXT,                          -- JSON: retries by cause
    output_name TEXT,                      -- -o as given
    output_path TEXT,                      -- -o resolved
    resume_command TEXT,
    tool_version TEXT,
    registry TEXT                          -- the IFSC registry the run checked against
  );
  CREATE TABLE run_activity (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    second INTEGER NOT NULL,               -- epoch seconds
    calls INTEGER NOT NULL DEFAULT 0,
    retries INTEGER NOT NULL DEFAULT 0,
    throttled INTEGER NOT NULL DEFAULT 0,  -- 429 answers
    server_errors INTEGER NOT NULL DEFAULT 0, -- 5xx answers
    timeouts INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, second)
  ) WITHOUT ROWID;
  `,
  // 6: the state's words, and never paying twice (docs/ARCHITECTURE.md, "State file").
  // - run_keys → run_payees, first_idx → first_row, phase → mode: the glossary's words.
  // - run_payees.claim: the invocation (the run lock's token) that marked the payee IN_FLIGHT, in
  //   the same transaction that checked it still held the lock: a request leaves only if its
  //   payee was claimed by this invocation.
  // - run_lock: a random token per invocation, a heartbeat counter (a lease is judged by whether
  //   the counter moves, on the judge's own clock, never by comparing two hosts' clocks), and
  //   what tells a live pid from a reused one (boot id, process start).
  // - deposits: every penny-drop request, per payee across runs and input files: a payee with a
  //   deposit answered, in flight or unconfirmed is never sent another without being asked.
  //   Filled from what older versions left (pd results answered; pd payees in flight or
  //   unconfirmed).
  `
  ALTER TABLE run_keys RENAME TO run_payees;
  ALTER TABLE run_payees RENAME COLUMN first_idx TO first_row;
  ALTER TABLE run_payees RENAME COLUMN phase TO mode;
  ALTER TABLE run_payees ADD COLUMN claim TEXT;
  DROP INDEX IF EXISTS run_keys_by_payee;
  CREATE UNIQUE INDEX run_payees_by_payee ON run_payees (run_id, account, ifsc);

  ALTER TABLE run_lock ADD COLUMN token TEXT;
  ALTER TABLE run_lock ADD COLUMN beat INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE run_lock ADD COLUMN boot_id TEXT;
  ALTER TABLE run_lock ADD COLUMN proc_start TEXT;

  -- Which file the run wrote, so a report of the run reads its rows only from its own file:
  -- JSON {dev, ino, size, mtimeNs} of -o once renamed into place (a later run's file differs).
  ALTER TABLE run_stats ADD COLUMN output_file TEXT;

  CREATE TABLE deposits (
    id INTEGER PRIMARY KEY,
    account TEXT NOT NULL,
    ifsc TEXT NOT NULL,
    run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    first_row INTEGER,
    claim TEXT,                            -- the invocation that sent it (run_lock.token)
    status TEXT NOT NULL,                  -- IN_FLIGHT | ANSWERED | UNCONFIRMED
    result_id INTEGER REFERENCES results (id),
    request_id TEXT,
    sent_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX deposits_by_payee ON deposits (account, ifsc, sent_at);
  CREATE INDEX deposits_in_flight ON deposits (status) WHERE status = 'IN_FLIGHT';
  INSERT INTO deposits (account, ifsc, run_id, first_row, claim, status, result_id, request_id, sent_at, updated_at)
    SELECT account, ifsc, NULL, NULL, NULL, 'ANSWERED', id, request_id, verified_at, verified_at FROM results WHERE mode = 'pd';
  INSERT INTO deposits (account, ifsc, run_id, first_row, claim, status, result_id, request_id, sent_at, updated_at)
    SELECT account, ifsc, run_id, first_row, NULL, 'UNCONFIRMED', NULL, request_id, updated_at, updated_at
    FROM run_payees WHERE mode = 'pd' AND status IN ('IN_FLIGHT', 'UNCONFIRMED');
  `,
  // 7: decisions (docs/ARCHITECTURE.md, "Decisions"), review and release.
  // - run_rows: each payee row's decision as the run wrote it (one per data row, SKIPPED rows
  //   not kept): what the review page lists and the release copies. The payee name and the
  //   amount are the file's cells; the holder and the evidence come from the payee's result.
  // - reviews: what a person said of a payee: ACCEPTED for one exact holder name (a later run that
  //   gets that holder pays it), or REJECTED (held until someone accepts it).
  // - audit: every decision, automatic or by a person, append-only (triggers refuse UPDATE and
  //   DELETE) and hash-chained (each entry's hash covers the previous one's), so a change made
  //   to the file by other means is found by `vas-verify audit`.
  `
  CREATE TABLE run_rows (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    row INTEGER NOT NULL,                  -- the data row (1-based), as run_payees.first_row counts
    line INTEGER NOT NULL,                 -- the file's line, for people
    account TEXT,                          -- its payee (run_payees by account and IFSC); NULL when its checks failed
    ifsc TEXT,
    name TEXT,                             -- the payee name in the file
    amount TEXT,                           -- the amount cell, where the file has an amount column
    status TEXT NOT NULL,                  -- verify_status
    reason_code TEXT NOT NULL,             -- verify_reason_code
    name_match TEXT,
    name_score INTEGER,
    decision TEXT NOT NULL,                -- PAY | REVIEW | HOLD
    decision_reason TEXT NOT NULL,
    PRIMARY KEY (run_id, row)
  ) WITHOUT ROWID;
  CREATE INDEX run_rows_by_decision ON run_rows (run_id, decision, row);

  CREATE TABLE reviews (
    id INTEGER PRIMARY KEY,
    account TEXT NOT NULL,
    ifsc TEXT NOT NULL,
    holder TEXT NOT NULL,                  -- the bank's holder name the reviewer decided on
    verdict TEXT NOT NULL,                 -- ACCEPTED | REJECTED
    reviewer TEXT NOT NULL,
    note TEXT,
    run_id INTEGER,
    row INTEGER,
    at INTEGER NOT NULL
  );
  CREATE INDEX reviews_by_payee ON reviews (account, ifsc, id);

  CREATE TABLE audit (
    seq INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    run_id INTEGER,
    kind TEXT NOT NULL,                    -- decision | review | release | run
    entry TEXT NOT NULL,                   -- canonical JSON of what was decided, by whom, on what evidence
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL                     -- sha256(prev_hash + entry)
  );
  CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
  CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
  `,
  // 8: a run's calls and spend over every invocation (run_calls_pl, run_calls_pd, run_spend),
  // beside the last invocation's (calls_pl, calls_pd, spend): a run resumed twice paid for all
  // three; the decision policy it used (JSON), for the review page and the release; rows by
  // source (JSON); and the emit key: what else than the answers shaped the output (tool version,
  // policy, column flags, format), so that a finished run whose output is still on disk, still
  // its own, and made the same way is re-emitted by copying that file; and that output's decision
  // counts and amounts, so that the copy's summary needs no pass over a million rows.
  `
  ALTER TABLE run_stats ADD COLUMN run_calls_pl INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE run_stats ADD COLUMN run_calls_pd INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE run_stats ADD COLUMN run_spend REAL NOT NULL DEFAULT 0;
  ALTER TABLE run_stats ADD COLUMN policy TEXT;
  ALTER TABLE run_stats ADD COLUMN sources TEXT;
  ALTER TABLE run_stats ADD COLUMN emit_key TEXT;
  ALTER TABLE run_stats ADD COLUMN decisions TEXT;        -- JSON: rows by decision and reason, amounts (of the output written)
  UPDATE run_stats SET run_calls_pl = calls_pl, run_calls_pd = calls_pd, run_spend = spend;
  `,
  // 9: how a run read its input, for the release
  // (docs/ARCHITECTURE.md, "Decisions"): JSON {path (resolved), sheet, headerRow, delimiter,
  // columns}, so `vas-verify release` reads the same file the same way (src/state/run-record.ts).
  `
  ALTER TABLE run_stats ADD COLUMN input TEXT;
  `,
  // 10: the approvals an acceptance was given under (review --approvals 2, or the run's policy):
  // a payee accepted where two reviewers were asked for needs two, in every later run and release
  // (earlier reviews take theirs from their audit entry's evidence); and the audit entries by kind,
  // so the reviews can be checked against theirs without reading the whole trail.
  `
  ALTER TABLE reviews ADD COLUMN approvals INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX audit_by_kind ON audit (kind, seq);
  UPDATE reviews SET approvals = coalesce((SELECT json_extract(a.entry, '$.evidence.approvals') FROM audit a
    WHERE a.kind = 'review' AND json_extract(a.entry, '$.review') = reviews.id), 1);
  `,
  // 11: the run lock's holder's PID namespace (Linux /proc/self/ns/pid): a run in a container
  // with the host's name (docker --network host, a fixed pod hostname) has pids another
  // namespace cannot look at, so its liveness is judged by its heartbeat, as another host's.
  `
  ALTER TABLE run_lock ADD COLUMN pid_ns TEXT;
  `,
  // 12: the API a document-locker session was started with (its base URL, without credentials;
  // null for the embedded sandbox and for sessions recorded before): a fetch through another API
  // is refused rather than sent there, and its "session unknown" never marks the session Expired.
  `
  ALTER TABLE doc_sessions ADD COLUMN api TEXT;
  `,
];
