import Foundation
import GRDB
import GymLogCore
import GymLogTestSupport
import Testing

/// The REPL in a real terminal (a tmux pane), driven with keys as a person types them.
@Suite(.serialized) struct TerminalSessionTests {
    @Test(.tmux)
    func ctrlCClearsTheLineAndCtrlDLeaves() throws {
        // Given the REPL open in a terminal, with one set logged
        let home = try TemporaryHome()
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        pane.enter("bench 100x5")
        try pane.waitFor("bench #1")
        // When a line is half typed and Ctrl-C is pressed
        pane.type("squat 1")
        try pane.waitFor("] > squat 1")
        pane.keys("C-c")
        // Then the line is dropped, ^C shows, a fresh prompt follows, and the REPL is still there
        try pane.waitFor("squat 1^C")
        pane.enter("squat 140x5")
        try pane.waitFor("squat #1")
        #expect(!pane.screen().contains("squat 1squat"), "\(pane.screen())")
        // And Ctrl-C on an empty prompt does nothing but prompt again (pressed once the prompt
        // is back: a Ctrl-C while a command runs stops the REPL, as in any shell)
        let atPrompt: (String) -> Bool = { $0.split(separator: "\n").last?.hasSuffix("] >") == true }
        try pane.waitUntil("the prompt after squat #1", atPrompt)
        pane.keys("C-c")
        pane.enter("+")
        try pane.waitFor("squat #2")
        // And a typo on the way does not make the session fail
        pane.enter("squat 140x")
        try pane.waitFor("expected reps")
        try pane.waitUntil("the prompt after the typo", atPrompt)
        // And Ctrl-D on an empty line leaves with status 0
        pane.keys("C-d")
        try pane.waitFor("[exited with status 0]")
        let db = try DatabaseQueue(path: home.database)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") } == 3)
    }
}

extension TerminalSessionTests {
    /// The rest timer counts in the prompt while the line is empty, rings when the target is
    /// reached, and never touches a half-typed line.
    @Test(.tmux)
    func theRestTimerCountsInThePromptWithoutDisturbingTyping() throws {
        // Given a target rest of 2 seconds in the config, and a set logged
        let home = try TemporaryHome()
        try "rest_seconds = 2\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        pane.enter("bench 100x5")
        // Then the prompt counts up to the target, and then marks it, on the same line
        try pane.waitFor("rest 0:01/0:02] >")
        try pane.waitFor("rest 0:02 ✓] >")
        try pane.waitFor("rest 0:03 ✓] >")
        let lines = pane.screen().split(separator: "\n")
        #expect(lines.filter { $0.contains("rest 0:") }.count == 1, "redrawn in place, not appended: \(pane.screen())")
        // When a line is half typed, the prompt stands still and the typing stays
        pane.type("squat 14")
        try pane.waitFor("] > squat 14")
        let typed = pane.screen()
        Thread.sleep(forTimeInterval: 2.2)
        #expect(pane.screen() == typed, "the prompt moved under a half-typed line: \(pane.screen())")
        // And Ctrl-C still clears it, and the line typed after it logs
        pane.keys("C-c")
        try pane.waitFor("squat 14^C")
        pane.enter("squat 140x5")
        try pane.waitFor("squat #1")
        try pane.waitFor("2 sets · rest 0:01/0:02] >")
    }
}

extension TerminalSessionTests {
    /// `exercises kind` asks before converting sets, in a shell and in the REPL, and a no writes nothing.
    @Test(.tmux)
    func changingAKindAsksInATerminal() throws {
        // Given a squat made bodyweight, with a loaded set
        let home = try TemporaryHome()
        #expect(try home.gymlog(["exercises", "add", "Squat", "--kind", "bodyweight"]).status == 0)
        #expect(try home.gymlog(["log", "squat bw+70x5"]).status == 0)
        let db = try DatabaseQueue(path: home.database)
        let kind = { try db.read { try String.fetchOne($0, sql: "SELECT kind FROM exercises WHERE name = 'Squat'") } }
        // When `exercises kind` runs in a terminal, it shows the change and asks; a no changes nothing
        let shell = try Tmux(home: home, arguments: ["exercises", "kind", "squat", "weighted"])
        defer { shell.close() }
        try shell.waitFor("1 like `bw+70kg x 5` -> `70kg x 5`")
        try shell.waitFor("Convert it? [y/N]")
        shell.enter("n")
        try shell.waitFor("Nothing was changed.")
        try shell.waitFor("[exited with status 1]")
        #expect(try kind() == "bodyweight")
        // And in the REPL a yes converts, and the REPL goes on
        let repl = try Tmux(home: home)
        defer { repl.close() }
        try repl.waitFor("] >")
        repl.enter("exercises kind squat weighted")
        try repl.waitFor("Convert it? [y/N]")
        repl.enter("y")
        try repl.waitFor("1 set converted. `undo` reverts it.")
        repl.enter("squat 80x5")
        try repl.waitFor("80kg x 5")
        #expect(try kind() == "weighted")
    }

    /// Issue 26, item 28: `login` without `--token` asks for it at the terminal and never
    /// shows it.
    @Test(.tmux)
    func loginAsksForTheTokenWithoutShowingIt() throws {
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try TemporaryHome()
        let pane = try Tmux(home: home, arguments: ["login", "--server", server.url])
        defer { pane.close() }
        try pane.waitFor("(from `gymlog-server user add`; not shown):")
        pane.enter(token)
        // A new account: Enter makes its key, and its recovery phrase is shown once
        try pane.waitFor("Recovery phrase (Enter makes a new key; not shown):")
        pane.enter("")
        try pane.waitFor("Logged in to \(server.url).")
        #expect(!pane.screen().contains(token), "\(pane.screen())")
        let saved = try String(contentsOfFile: home.credentials, encoding: .utf8)
        #expect(saved.contains(token))
        let phrase = try #require(saved.split(separator: "\n").first { $0.hasPrefix("key = ") }).split(separator: "\"")[1]
        #expect(pane.screen().contains(" 1. " + phrase.split(separator: " ")[0]) && pane.screen().contains("24. " + phrase.split(separator: " ")[23]),
                "\(pane.screen())")
    }

    /// On a narrow terminal a long line breaks between words, never inside a word or a number.
    @Test(.tmux)
    func aNarrowTerminalBreaksLinesBetweenWords() throws {
        // Given the REPL in a terminal 44 columns wide
        let home = try TemporaryHome()
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        try pane.tmux(["resize-window", "-t", pane.session, "-x", "44", "-y", "30"])
        // When a line longer than that is printed
        pane.enter("warmup squat 140")
        try pane.waitFor("120x1")
        // Then every word of it shows whole on some line, and no line is wider than the terminal
        let lines = pane.screen().split(separator: "\n").map(String.init)
        let words = Set(lines.flatMap { $0.split(separator: " ").map(String.init) })
        for word in "Warm-up for squat to 140 kg: bar x10, 62.5x5, 85x3, 105x2, 120x1".split(separator: " ") {
            #expect(words.contains(String(word)), "'\(word)' is split:\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.allSatisfy { $0.count <= 44 }, "\(lines.joined(separator: "\n"))")
    }

    /// Issue 26 items 27 and 30: bash, zsh and fish complete exercise names whole, spaces and
    /// parentheses included, whatever the case typed, through the scripts
    /// `gymlog --generate-completion-script SHELL` writes.
    @Test(.tmux, arguments: ["bash", "zsh", "fish"])
    func aShellCompletesNamesWithSpacesAndParenthesesInAnyCase(shell: String) throws {
        // Given exercises with spaces and parentheses, and the shell with gymlog's completion loaded
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)"),
                     "\(shell) is not installed: apt-get install \(shell) (.ci/run installs it)")
        let home = try TemporaryHome()
        for line in ["Bench Press (Barbell) 100x5", "Bench Press (Dumbbell) 30x10", "Squat (Barbell) 140x5"] {
            #expect(try home.gymlog(["log", line]).status == 0)
        }
        let folder = home.root + "/completions"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = folder + (shell == "zsh" ? "/_gymlog" : "/gymlog.\(shell)")
        try home.gymlog(["--generate-completion-script", shell]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let path = "PATH=\(shellQuoted(builtProducts.path)):/usr/bin:/bin"
        let (program, setup) = switch shell {
        case "zsh": ("env \(path) zsh -f", "fpath=(\(shellQuoted(folder)) $fpath); autoload -U compinit; compinit -u; PS1='ready> '")
        case "fish": ("env \(path) fish --no-config", "source \(shellQuoted(script)); function fish_prompt; echo -n 'ready> '; end")
        default: ("env \(path) bash --norc --noprofile", "source \(shellQuoted(script)); PS1='ready> '")
        }
        let pane = try Tmux(home: home, running: program)
        defer { pane.close() }
        pane.enter(setup)
        try pane.waitFor("ready> ")
        // When the start of a name is typed in lower case
        pane.type("gymlog prs bench")
        pane.keys("Tab")
        // Then the word becomes what the names share, in their case and quoted for the shell,
        // and Tab lists both equipments
        try pane.waitFor("ready> gymlog prs Bench\\ Press\\ \\(")
        pane.keys("Tab")
        pane.keys("Tab")
        try pane.waitUntil("both names listed") { screen in
            screen.split(separator: "\n").contains { !$0.contains("ready>") && $0.contains("Dumbbell") && $0.contains("Barbell") }
        }
        // And a lower-case prefix of one name completes it whole
        pane.keys("C-u")
        pane.type("gymlog chart squ")
        pane.keys("Tab")
        try pane.waitFor("ready> gymlog chart Squat\\ \\(Barbell\\)") // (tmux drops the trailing space)
        // And in bash and zsh a word typed escaped, in any case, goes on past the parenthesis
        // (fish matches a typed escape against the name's own case only)
        guard shell != "fish" else { return }
        pane.keys("C-u")
        pane.type("gymlog prs bench\\ press\\ \\(d")
        pane.keys("Tab")
        try pane.waitFor("ready> gymlog prs Bench\\ Press\\ \\(Dumbbell\\)")
    }

    /// Issue 26 item 30: in the REPL one Tab widens a lower-case word to what the names share
    /// and lists them, as bash does with show-all-if-ambiguous; and a word with no common
    /// prefix lists on its first Tab.
    @Test(.tmux)
    func oneTabInTheReplCompletesAndListsTheNames() throws {
        let home = try TemporaryHome()
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        pane.enter("Bench Press (Barbell) 100x5")
        pane.enter("Bench Press (Dumbbell) 30x10")
        try pane.waitFor("Bench Press (Dumbbell) #1")
        pane.type("bench")
        pane.keys("Tab")
        try pane.waitUntil("the word widened and both names listed") { screen in
            let lines = screen.split(separator: "\n")
            return lines.last?.hasSuffix("> Bench Press (") == true
                && lines.contains { !$0.contains(">") && $0.contains("Bench Press (Barbell)") && $0.contains("Bench Press (Dumbbell)") }
        }
        pane.keys("C-u")
        pane.enter("Bulgarian Split Squat 20x8")
        try pane.waitFor("Bulgarian Split Squat #1")
        pane.type("Bu")
        pane.keys("Tab")
        try pane.waitUntil("one name completed") { $0.split(separator: "\n").last?.hasSuffix("> Bulgarian Split Squat") == true }
    }

    /// `delete --workout` asks at the terminal, reads the answer there, and the REPL goes on.
    @Test(.tmux)
    func deletingAWholeWorkoutAsksAtTheTerminal() throws {
        // Given the REPL open in a terminal, with a workout of two sets
        let home = try TemporaryHome()
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        pane.enter("bench 100x5x2")
        try pane.waitFor("bench #2")
        // When the whole workout is deleted, it asks; `n` keeps it
        pane.enter("delete --workout -1")
        try pane.waitFor("2 sets)? `undo` brings it back. [y/N]")
        pane.enter("n")
        try pane.waitFor("Nothing was deleted.")
        // And `y` deletes it, and the REPL prompts again
        pane.enter("delete --workout -1")
        try pane.waitUntil("the second question") { $0.components(separatedBy: "[y/N]").count == 3 }
        pane.enter("y")
        try pane.waitFor("`undo` brings it back.\ngymlog>")
        let db = try DatabaseQueue(path: home.database)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") } == 0)
        // And the answer never went into the line history: Up brings back the command
        pane.keys("Up")
        try pane.waitUntil("the command recalled") { $0.split(separator: "\n").last?.hasSuffix("> delete --workout -1") == true }
    }
}

/// One tmux session running `gymlog` in a temporary home.
struct Tmux {
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || path != nil }
    /// CI must run the terminal tests.
    static var required: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
    static var path: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let session = "gymlog-test-\(UUID().uuidString.prefix(8))"
    let socket: String

    /// `gymlog arguments` (the REPL with none) in a new pane.
    init(home: TemporaryHome, arguments: [String] = []) throws {
        let gymlog = ([builtProducts.appendingPathComponent("gymlog").path] + arguments).map(shellQuoted).joined(separator: " ")
        // The pane stays after gymlog ends, showing how it ended.
        try self.init(home: home, running: "\(gymlog); echo \"[exited with status $?]\"; sleep 60")
    }

    /// `program` (a shell command line) in a new pane, in the home's environment.
    init(home: TemporaryHome, running program: String) throws {
        // tmux must be there in CI: a missing tmux fails the run instead of skipping it.
        try #require(Tmux.available, "tmux is not installed; CI installs it in .ci/run")
        socket = home.root + "/tmux.sock"
        let env = home.environment.map { "\($0.key)=\(shellQuoted($0.value))" }.sorted().joined(separator: " ")
        let command = "env TERM=xterm \(env) \(program)"
        // The tmux server this starts would inherit every open descriptor of its client, and
        // Foundation learns that a child ended when the child's copies close: a bash in
        // between closes them all before it becomes tmux, and output goes to /dev/null.
        let start = Process()
        start.executableURL = URL(fileURLWithPath: "/bin/bash")
        start.arguments = ["-c", #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$0" "$@""#,
                           Tmux.path ?? "/usr/bin/tmux", "-S", socket, "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]
        start.standardInput = FileHandle.nullDevice
        start.standardOutput = FileHandle.nullDevice
        start.standardError = FileHandle.nullDevice
        try start.run()
        start.waitUntilExit()
        guard start.terminationStatus == 0 else { throw Failure(description: "tmux new-session failed with \(start.terminationStatus)") }
    }

    /// The REPL in a new pane, once its first prompt shows.
    static func repl(home: TemporaryHome) throws -> Tmux {
        let pane = try Tmux(home: home)
        // `gymlog> `, `[10:15 · 1 set] > `, with the sync's state when logged in (`gymlog syncing> `).
        let prompted = { (screen: String) in
            screen.split(separator: "\n").last.map { ($0.hasPrefix("gymlog") || $0.hasPrefix("[")) && $0.hasSuffix(">") } == true
        }
        do { try pane.waitUntil("the first prompt", prompted) } catch { pane.close(); throw error }
        return pane
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    @discardableResult
    func tmux(_ args: [String]) throws -> ProcessResult {
        try ProcessRunner.run(URL(fileURLWithPath: Tmux.path ?? "/usr/bin/tmux"), ["-S", socket] + args, timeout: 10)
    }

    func type(_ text: String) { _ = try? tmux(["send-keys", "-t", session, "-l", text]) }
    /// Types a line and presses Enter.
    func enter(_ line: String) { type(line); keys("Enter") }
    func keys(_ names: String...) { _ = try? tmux(["send-keys", "-t", session] + names) }
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", session]).stdout) ?? "" }

    /// Waits up to 10 s for `text` to show on the screen.
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if screen().contains(text) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let pid = (try? tmux(["display-message", "-p", "-t", session, "#{pane_pid}"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        let status = children.split(separator: " ").map { (try? String(contentsOfFile: "/proc/\($0)/status", encoding: .utf8)) ?? "" }
            .joined().split(separator: "\n").filter { $0.hasPrefix("Sig") || $0.hasPrefix("Name") }.joined(separator: "\n")
        throw Failure(description: "'\(text)' never showed; the screen:\n\(screen())\n\(status)")
    }

    /// Waits up to 10 s for the screen to satisfy `check` (`what` names it when it never does).
    func waitUntil(_ what: String, _ check: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if check(screen()) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "\(what) never showed; the screen:\n\(screen())")
    }

    /// Ends the pane's processes (gymlog may be waiting at its prompt) and the tmux server.
    func close() {
        if let pid = Int32((try? tmux(["display-message", "-p", "-t", session, "#{pane_pid}"]))?.stdout
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
            kill(-pid, SIGKILL)
        }
        _ = try? tmux(["kill-server"])
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs where tmux is installed, and always in CI (where `Tmux` fails without it).
    static var tmux: Self { .enabled(if: Tmux.available || Tmux.required, "tmux is not installed (apt-get install tmux)") }
}


extension TerminalSessionTests {
    /// `routine add` and `routine edit` without --file run $EDITOR in the foreground with the
    /// terminal, as git does, from the shell and from the REPL: an editor that sets the
    /// terminal's modes and reads keys from it (vim does both) works, and the REPL goes on.
    @Test(.tmux)
    func theRoutineEditorOwnsTheTerminal() throws {
        // Given an editor that, like vim, needs the terminal: it is in the terminal's foreground
        // process group, changes the terminal's modes and reads what is typed
        let home = try TemporaryHome()
        let editor = home.root + "/tty-editor"
        try """
        #!/bin/sh
        set -- "$1" $(ps -o tpgid=,pgid= -p $$)
        [ "$2" = "$3" ] || { echo "not in the terminal's foreground group: $2 $3"; exit 5; }
        stty -echo || exit 3
        printf 'weight? '
        read w || exit 4
        stty echo
        printf '# %s\\nbench 3x5 %s\\n' "$NAME" "$w" > "$1"
        """.write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let gymlog = shellQuoted(builtProducts.appendingPathComponent("gymlog").path)
        // When `routine add` runs from the shell, then the REPL opens
        let pane = try Tmux(home: home, running: "EDITOR=\(editor) VISUAL= NAME=Push sh -c \(shellQuoted("\(gymlog) routine add Push; \(gymlog); sleep 60"))")
        defer { pane.close() }
        try pane.waitFor("weight?")
        pane.enter("100")
        // Then the editor got the key, and the routine is saved
        try pane.waitFor("Added the routine 'Push'")
        try pane.waitUntil("the REPL's prompt") { $0.split(separator: "\n").last?.hasSuffix(">") == true }
        // And `routine edit` in the REPL runs the editor the same way
        pane.enter("routine edit push")
        try pane.waitUntil("the second question") { $0.components(separatedBy: "weight?").count == 3 }
        pane.enter("105")
        try pane.waitFor("Saved the routine 'Push'")
        #expect(try home.gymlog(["routine", "export", "push"]).stdout == "# Push\nbench 3x5 105\n")
        // And the REPL reads lines again, echoing them
        pane.enter("squat 100x5")
        try pane.waitFor("squat #1")
        #expect(pane.screen().contains("> squat 100x5"), "\(pane.screen())")
    }
}

extension TerminalSessionTests {
    /// An error longer than a narrow terminal breaks between words, as output does, never
    /// inside a word; the line typed and its caret stay whole, so the caret still points.
    @Test(.tmux)
    func anErrorWrapsBetweenWordsAtSixtyColumns() throws {
        // Given the REPL in a terminal 60 columns wide
        let home = try TemporaryHome()
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        try pane.tmux(["resize-window", "-t", pane.session, "-x", "60", "-y", "30"])
        // When a command fails with a long message
        pane.enter("history nosuchexercisewithalongname")
        try pane.waitUntil("the prompt after the error") { $0.split(separator: "\n").last?.hasSuffix(">") == true && $0.contains("error:") }
        // Then every line of it ends at a whole word: the next line starts a new word
        let screen = pane.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let error = screen.drop { !$0.hasPrefix("error:") }.prefix { !$0.hasSuffix(">") }
        // (each word on screen is a word of the message in the REPL, whole)
        let words: Set<Substring> = ["error:", "No", "exercise", "is", "called", "'nosuchexercisewithalongname';", "list", "them", "with", "`exercises`."]
        #expect(error.count > 1, "\(screen)")
        #expect(error.allSatisfy { $0.count <= 60 }, "\(screen)")
        let cut = error.flatMap { $0.split(separator: " ") }.filter { !words.contains($0) }
        #expect(cut.isEmpty, "\(cut) in \(screen)")
        // And a typo's caret line still points at the token under the line as typed
        pane.enter("ohp 60x")
        try pane.waitFor("  ohp 60x\n        ^\n")
    }
}
