import GRDB

/// The client's schema, as append-only migrations. Never edit a shipped migration: add one.
/// Migrations use SQL only (no app types) so they replay identically forever.
enum Schema {
    /// Whether `db` has every migration of this version: read as the plain list of applied
    /// identifiers when it is exactly this version's (every open but the first of a new
    /// version), else by GRDB's own check, whose `Set<String>` of identifiers cost each
    /// one-shot `gymlog` 0.8 M instructions.
    static func isMigrated(_ db: Database) throws -> Bool {
        let migrator = self.migrator
        if let applied = try? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
           applied == migrator.migrations { return true }
        return try migrator.hasCompletedMigrations(db)
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
            -- One row: this database's identity, its last issued clock and outbox sequence.
            CREATE TABLE device (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                device_id TEXT NOT NULL,
                last_clock TEXT NOT NULL,
                last_seq INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL
            );
            -- One row: where this database stands with its sync server.
            CREATE TABLE sync_state (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                server TEXT,
                epoch TEXT,
                cursor INTEGER NOT NULL DEFAULT 0,
                acked_seq INTEGER NOT NULL DEFAULT 0,
                last_sync_at INTEGER,
                last_error TEXT
            );
            INSERT INTO sync_state (singleton) VALUES (1);

            -- Synced tables. Field names are column names; `clocks` maps each field to the
            -- HLC of its last write; `deleted_at` is the tombstone (never a hard delete);
            -- `extra` keeps fields from newer clients that this version does not know.
            CREATE TABLE exercises (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                kind TEXT NOT NULL DEFAULT 'weighted',
                deleted_at INTEGER,
                clocks TEXT NOT NULL DEFAULT '{}',
                extra TEXT
            );
            CREATE INDEX exercises_by_name ON exercises(name COLLATE NOCASE);

            CREATE TABLE aliases (
                id TEXT PRIMARY KEY NOT NULL,
                alias TEXT NOT NULL DEFAULT '',
                exercise_id TEXT NOT NULL REFERENCES exercises(id),
                deleted_at INTEGER,
                clocks TEXT NOT NULL DEFAULT '{}',
                extra TEXT
            );
            CREATE INDEX aliases_by_alias ON aliases(alias COLLATE NOCASE);

            CREATE TABLE workouts (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT,
                started_at INTEGER NOT NULL DEFAULT 0,
                ended_at INTEGER,
                utc_offset INTEGER NOT NULL DEFAULT 0,
                note TEXT,
                deleted_at INTEGER,
                clocks TEXT NOT NULL DEFAULT '{}',
                extra TEXT
            );
            CREATE INDEX workouts_by_start ON workouts(started_at);

            CREATE TABLE sets (
                id TEXT PRIMARY KEY NOT NULL,
                workout_id TEXT NOT NULL REFERENCES workouts(id),
                exercise_id TEXT NOT NULL REFERENCES exercises(id),
                kind TEXT NOT NULL DEFAULT 'working',
                weight TEXT,
                weight_unit TEXT,
                bodyweight INTEGER NOT NULL DEFAULT 0,
                reps INTEGER,
                rpe TEXT,
                duration_s INTEGER,
                distance TEXT,
                distance_unit TEXT,
                note TEXT,
                performed_at INTEGER NOT NULL DEFAULT 0,
                utc_offset INTEGER NOT NULL DEFAULT 0,
                deleted_at INTEGER,
                clocks TEXT NOT NULL DEFAULT '{}',
                extra TEXT
            );
            CREATE INDEX sets_by_exercise ON sets(exercise_id, performed_at);
            CREATE INDEX sets_by_time ON sets(performed_at);
            -- Logging a set asks three questions of the open workout (its last set, the
            -- exercise's set count, its working volume). These partial indexes over live
            -- sets answer them from the index alone, whatever the workout's size.
            CREATE INDEX live_sets_by_workout_time ON sets(workout_id, performed_at, deleted_at) WHERE deleted_at IS NULL;
            CREATE INDEX live_sets_by_workout_exercise ON sets(workout_id, exercise_id, kind, bodyweight, weight, weight_unit, reps, deleted_at)
                WHERE deleted_at IS NULL;

            -- Every local change waiting for the server's acknowledgement. `seq` is the
            -- gapless per-device sequence the server checks; rows leave only when acked.
            CREATE TABLE outbox (
                seq INTEGER PRIMARY KEY NOT NULL,
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                op TEXT NOT NULL,
                payload TEXT NOT NULL,
                idempotency_key TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                next_attempt_at INTEGER
            );

            -- Derived, local only: the best value per exercise and metric, so a new set is
            -- checked against a handful of rows instead of the whole history.
            CREATE TABLE records (
                exercise_id TEXT NOT NULL,
                metric TEXT NOT NULL,
                reps INTEGER NOT NULL DEFAULT 0,
                value REAL NOT NULL,
                set_id TEXT NOT NULL,
                workout_id TEXT NOT NULL,
                achieved_at INTEGER NOT NULL,
                PRIMARY KEY (exercise_id, metric, reps)
            ) WITHOUT ROWID;
            -- Which e1RM formula the records table was computed with.
            CREATE TABLE records_meta (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                formula TEXT NOT NULL
            );
            INSERT INTO records_meta VALUES (1, 'epley');
            """)
        }
        m.registerMigration("v2-undo-journal") { db in
            try db.execute(sql: """
            -- Local only, never synced and never in the outbox: this device's own actions
            -- (one typed command that wrote), newest last, for `undo` and `redo`.
            CREATE TABLE undo_actions (
                -- A plain rowid, not AUTOINCREMENT: ids only order actions, and
                -- AUTOINCREMENT would write its sequence table on every logged line.
                id INTEGER PRIMARY KEY,
                label TEXT NOT NULL,
                summary TEXT NOT NULL,
                workout_id TEXT,
                undone INTEGER NOT NULL DEFAULT 0,
                -- When it was done, or last undone or redone.
                at INTEGER NOT NULL,
                -- Each row change of the action, in write order, as one JSON array: entity,
                -- id, op, the fields written with their values before (null for a create) and
                -- after. One row per action keeps a logged line's extra writes to one page.
                writes TEXT NOT NULL
            );
            CREATE INDEX undo_actions_undone ON undo_actions(id) WHERE undone = 1;
            """)
        }
        m.registerMigration("v3-routines") { db in
            try db.execute(sql: """
            -- A synced table like the others: a routine is its plain text (`body`, the text
            -- `routine export` prints), parsed when it is shown or run. The id derives from
            -- the name, so two devices adding "Push A" offline converge on one routine.
            CREATE TABLE routines (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                body TEXT NOT NULL DEFAULT '',
                -- When each planned line (its canonical text) was first saved, as JSON: a
                -- 5/3/1 wave counts from its own line's, so editing another line keeps it.
                line_since TEXT,
                deleted_at INTEGER,
                clocks TEXT NOT NULL DEFAULT '{}',
                extra TEXT
            );
            CREATE INDEX routines_by_name ON routines(name COLLATE NOCASE);
            -- A workout started from a routine names it, and the planned exercises skipped
            -- today (their line numbers in the routine, comma-separated).
            ALTER TABLE workouts ADD COLUMN routine_id TEXT;
            -- The bodyweight log (`bw 82.5`), synced like the rest; the weight exactly as typed.
            CREATE TABLE bodyweights (
                id TEXT PRIMARY KEY NOT NULL,
                measured_at INTEGER NOT NULL DEFAULT 0,
                utc_offset INTEGER NOT NULL DEFAULT 0,
                weight TEXT,
                weight_unit TEXT,
                deleted_at INTEGER,
                clocks TEXT NOT NULL DEFAULT '{}',
                extra TEXT
            );
            CREATE INDEX bodyweights_by_time ON bodyweights(measured_at) WHERE deleted_at IS NULL;
            -- Sets logged as one superset (`bench 100x5 & row 70x8`, and its `+` rounds) share an id.
            ALTER TABLE sets ADD COLUMN superset_id TEXT;
            -- An exercise's own target rest between sets (`exercises rest NAME 3:00`).
            ALTER TABLE exercises ADD COLUMN rest_seconds INTEGER;
            ALTER TABLE workouts ADD COLUMN skipped TEXT;
            -- Earlier versions skipped routines pulled from the server while their cursor
            -- moved past them: pull everything once more (merging is idempotent).
            UPDATE sync_state SET cursor = 0;
            """)
        }
        m.registerMigration("v4-session-tallies") { db in
            // What one set adds to its tally's volume columns (`VolumeTally.add`): a working
            // set's added load in thousandths of its unit times its reps; `lb` apart, any
            // other unit read as kg. Spelled out here, not shared: a shipped migration never changes.
            func volume(_ row: String, pounds: Bool) -> String {
                "CASE WHEN \(row).kind <> 'warmup' AND \(row).bodyweight = 0 AND \(row).weight_unit IS \(pounds ? "" : "NOT ")'lb' "
                    + "THEN COALESCE(CAST(round(CAST(\(row).weight AS REAL) * 1000) AS INTEGER) * \(row).reps, 0) ELSE 0 END"
            }
            func add(_ row: String) -> String {
                """
                INSERT INTO session_tallies (workout_id, exercise_id, live_sets, kg_volume, lb_volume)
                VALUES (\(row).workout_id, \(row).exercise_id, 1, \(volume(row, pounds: false)), \(volume(row, pounds: true)))
                ON CONFLICT (workout_id, exercise_id) DO UPDATE SET live_sets = live_sets + 1,
                    kg_volume = kg_volume + excluded.kg_volume, lb_volume = lb_volume + excluded.lb_volume;
                """
            }
            func remove(_ row: String) -> String {
                """
                UPDATE session_tallies SET live_sets = live_sets - 1, kg_volume = kg_volume - \(volume(row, pounds: false)),
                    lb_volume = lb_volume - \(volume(row, pounds: true))
                WHERE workout_id = \(row).workout_id AND exercise_id = \(row).exercise_id;
                """
            }
            let counted = "workout_id, exercise_id, kind, weight, weight_unit, bodyweight, reps, deleted_at"
            try db.execute(sql: """
            -- Derived, local only, like `records`: per workout and exercise, its live sets and
            -- their working volume, so logging a set reads one row instead of counting and
            -- summing the workout's sets (which grew with the workout). Volumes are exact
            -- integers (weight in thousandths of its unit x reps, kg and lb apart), so adding
            -- and removing sets in any order leaves the same total.
            CREATE TABLE session_tallies (
                workout_id TEXT NOT NULL,
                exercise_id TEXT NOT NULL,
                live_sets INTEGER NOT NULL DEFAULT 0,
                kg_volume INTEGER NOT NULL DEFAULT 0,
                lb_volume INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (workout_id, exercise_id)
            ) WITHOUT ROWID;
            -- Triggers, not the write pipeline, keep it: every writer of `sets` (logging,
            -- edit, delete, undo and redo, a pulled change, import, merge) goes through them.
            CREATE TRIGGER session_tallies_insert AFTER INSERT ON sets WHEN NEW.deleted_at IS NULL BEGIN
                \(add("NEW"))
            END;
            CREATE TRIGGER session_tallies_update_old AFTER UPDATE OF \(counted) ON sets WHEN OLD.deleted_at IS NULL BEGIN
                \(remove("OLD"))
            END;
            CREATE TRIGGER session_tallies_update_new AFTER UPDATE OF \(counted) ON sets WHEN NEW.deleted_at IS NULL BEGIN
                \(add("NEW"))
            END;
            CREATE TRIGGER session_tallies_delete AFTER DELETE ON sets WHEN OLD.deleted_at IS NULL BEGIN
                \(remove("OLD"))
            END;
            INSERT INTO session_tallies (workout_id, exercise_id, live_sets, kg_volume, lb_volume)
            SELECT s.workout_id, s.exercise_id, COUNT(*), SUM(\(volume("s", pounds: false))), SUM(\(volume("s", pounds: true)))
            FROM sets s WHERE s.deleted_at IS NULL GROUP BY s.workout_id, s.exercise_id;
            """)
        }
        m.registerMigration("v5-parked-changes") { db in
            try db.execute(sql: """
            -- Pulled changes that break the rules of a local write (`PulledChangeRules`): kept
            -- whole and unapplied, one row per synced row (its fields as an outbox payload),
            -- with the reason `gymlog status` shows. Local only, never synced.
            CREATE TABLE parked_changes (
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                payload TEXT NOT NULL,
                reason TEXT NOT NULL,
                parked_at INTEGER NOT NULL,
                PRIMARY KEY (entity, entity_id)
            ) WITHOUT ROWID;
            """)
        }
        m.registerMigration("v6-routine-unit") { db in
            try db.execute(sql: """
            -- The unit a routine's weights without one are in: the unit of the device it was
            -- written on, so `tm 85` stays 85 kg on a device set to lb. Null for routines
            -- saved before (read in each device's unit, as then) until they are saved again.
            ALTER TABLE routines ADD COLUMN unit TEXT;
            -- A newer client's unit kept in `extra` by this version's predecessor moves to its column.
            UPDATE routines SET unit = json_extract(extra, '$.unit'), extra = json_remove(extra, '$.unit')
            WHERE json_extract(extra, '$.unit') IS NOT NULL;
            """)
        }
        m.registerMigration("v7-set-rir") { db in
            try db.execute(sql: """
            -- Reps in reserve as typed (`rir2`), beside the RPE: a set carries one or the other.
            ALTER TABLE sets ADD COLUMN rir TEXT;
            -- A newer client's RIR kept in `extra` by this version's predecessor moves to its column.
            UPDATE sets SET rir = json_extract(extra, '$.rir'), extra = json_remove(extra, '$.rir')
            WHERE json_extract(extra, '$.rir') IS NOT NULL;
            """)
        }
        m.registerMigration("v8-sync-manager") { db in
            try db.execute(sql: """
            -- The sync that runs by itself: when a failed cycle may be tried again and the
            -- delay it waited (doubling up to sync.interval), and whether the last error is
            -- one no retry fixes (a refused token or key), and whether the user was told.
            ALTER TABLE sync_state ADD COLUMN next_try_at INTEGER;
            ALTER TABLE sync_state ADD COLUMN backoff_ms INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_state ADD COLUMN retry_stopped INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_state ADD COLUMN stop_shown INTEGER NOT NULL DEFAULT 0;
            """)
        }
        m.registerMigration("v9-exercise-link") { db in
            try db.execute(sql: """
            -- The catalog entry an exercise links to: null finds it from the name, '' never
            -- links it (`exercises unlink`), else the catalog id set by hand (`exercises link`).
            ALTER TABLE exercises ADD COLUMN catalog_id TEXT;
            -- A lifter's own description (`exercises muscles`), muscles comma-separated as the
            -- catalog names them; primary muscles win over any link.
            ALTER TABLE exercises ADD COLUMN primary_muscles TEXT;
            ALTER TABLE exercises ADD COLUMN secondary_muscles TEXT;
            ALTER TABLE exercises ADD COLUMN equipment TEXT;
            -- A newer client's fields kept in `extra` by this version's predecessor move to their columns.
            \(["catalog_id", "primary_muscles", "secondary_muscles", "equipment"].map { field in
                "UPDATE exercises SET \(field) = json_extract(extra, '$.\(field)'), extra = json_remove(extra, '$.\(field)') "
                    + "WHERE json_extract(extra, '$.\(field)') IS NOT NULL;"
            }.joined(separator: "\n"))
            """)
        }
        m.registerMigration("v10-pulled-through") { db in
            // Where the last complete pull ended: pulls ask the server only for the changes
            // of each record after it (`since`), not for the records whole. 0 asks for them
            // whole, as before, until the next complete pull.
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN pulled_through INTEGER NOT NULL DEFAULT 0")
        }
        m.registerMigration("v11-copy-notice") { db in
            // What the database did when it found itself a copy of another device's
            // (`becomeNewDevice`), until `gymlog status` has said it once.
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN copy_notice TEXT")
        }
        m.registerMigration("v12-unbound-seals-until") { db in
            // When this database first ran a gymlog that binds each sealed value to its write's
            // clock (0.12.0, `s2:`): values in the older `s1:` format open only under clocks up
            // to then, so a server cannot serve an old value as a newer write (issue 45).
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN unbound_seals_until INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "UPDATE sync_state SET unbound_seals_until = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)")
        }
        m.registerMigration("v13-undo-created") { db in
            try db.execute(sql: """
            -- Local only, like undo_actions: the rows an import created, one per row, under the
            -- undo action that created them. An import of a whole history journals its creates
            -- here as it writes them rather than in the action's `writes`, which were built in
            -- memory first (130 MiB for 200,000 sets); `undo` tombstones them, `redo` clears
            -- the tombstones.
            CREATE TABLE undo_created (
                action INTEGER NOT NULL,
                entity TEXT NOT NULL,
                id TEXT NOT NULL
            );
            CREATE INDEX undo_created_action ON undo_created(action);
            -- An action leaves the stack (pruned, cleared by a new action, refused) with its rows.
            CREATE TRIGGER undo_created_follow AFTER DELETE ON undo_actions BEGIN
                DELETE FROM undo_created WHERE action = OLD.id;
            END;
            """)
        }
        m.registerMigration("v14-sets-by-workout") { db in
            // Every set of a workout, live or deleted: what an import compares a file's workout
            // with (`Importer.sets(of:)`). The live-only indexes could not serve it, so each
            // workout of a file scanned the whole sets table (a 20,000-set file imported again
            // took 46 s, reading the table 800 times).
            try db.execute(sql: "CREATE INDEX sets_by_workout ON sets(workout_id)")
        }
        m.registerMigration("v15-replaced-edits") { db in
            // Local only: a local edit of a set that a later one from another device replaced
            // in a pull, one line each, until `sync`, `status` or the REPL has said it once.
            try db.execute(sql: "CREATE TABLE replaced_edits (id INTEGER PRIMARY KEY, notice TEXT NOT NULL)")
        }
        return m
    }
}
