import CReadline
import Foundation
import GymLogStore

/// Where REPL lines come from.
protocol LineReader {
    /// The next line, or nil at end of input.
    mutating func next(prompt: String) -> String?
    func remember(_ line: String)
}

/// Piped input: no prompt, no history, plain lines (a script can feed a whole session).
struct PlainLineReader: LineReader {
    mutating func next(prompt: String) -> String? { Swift.readLine(strippingNewline: true) }
    func remember(_ line: String) {}
}

/// Words offered by tab completion; set before each prompt. readline calls back through C
/// function pointers that cannot capture context, hence the global.
nonisolated(unsafe) var completionWords: [String] = []

/// What a Tab does to `typed` (the word being completed, after `lineStart` on the line):
/// readline's match list, the replacement text first and then the candidates (none when
/// only one is left: readline then adds a space). Names match ignoring case. When several
/// remain, the replacement is what they all start with, without a space that ends it:
/// `later` becomes `Lateral Raise`, not `Lateral Raise `, so the word typed next is not cut
/// off by a space the lifter did not type.
func completion(of typed: String, after lineStart: String, among words: [String]) -> [String] {
    let prefix = (lineStart + typed).lowercased()
    var seen = Set<String>()
    let matches = words.filter { $0.lowercased().hasPrefix(prefix) }
        .map { String($0.dropFirst(lineStart.count)) }
        .filter { seen.insert($0).inserted }
    guard matches.count > 1 else { return matches }
    var common = matches[0]
    for match in matches.dropFirst() {
        common = String(zip(common, match).prefix { $0 == $1 }.map(\.0))
    }
    // Shorter than typed (only the case differs): keep what was typed.
    if common.count < typed.count { common = typed }
    while common.count > typed.count, common.last == " " { common.removeLast() }
    return [common] + matches
}

/// A terminal: GNU readline line editing, persistent history and tab completion; Ctrl-C at
/// the prompt clears the line, as in bash and psql, instead of ending the REPL.
struct ReadlineReader: LineReader {
    let historyPath: String

    init(historyPath: String) {
        self.historyPath = historyPath
        try? OwnerOnlyFiles.makeFolder((historyPath as NSString).deletingLastPathComponent)
        read_history(historyPath)
        gymlog_rl_install_completion { text, start, _ in
            // Complete the whole line so far, so multi-word names like "bench press" work.
            let typed = text.map { String(cString: $0) } ?? ""
            let lineStart = gymlog_rl_line_buffer().map { String(cString: $0).prefix(Int(start)) } ?? ""
            let matches = completion(of: typed, after: String(lineStart), among: completionWords)
            gymlog_rl_completion_over()
            guard !matches.isEmpty else { return nil }
            // readline's own list would put the matches' longest common start first, with
            // the space that ends a shared word (`Lateral Raise `): built here instead.
            let list = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (matches.count + 1))!
                .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
            for (i, match) in matches.enumerated() { list[i] = strdup(match) }
            list[matches.count] = nil
            return list
        }
    }

    /// Ctrl-C clears the line being typed and prompts again; Ctrl-D on an empty line is the end.
    mutating func next(prompt: String) -> String? {
        // The rest timer redraws the prompt every second while the line is empty.
        guard let raw = gymlog_rl_read_line(prompt, { liveRestPrompt().flatMap { strdup($0) } }) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// One answer to a question a command asks (`Delete the workout ...? [y/N] `), read with
    /// readline but kept out of the history; nil at Ctrl-D.
    static func answer(_ question: String) -> String? {
        guard let raw = gymlog_rl_read_line(question, nil) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    func remember(_ line: String) {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        add_history(line)
        // append_history only appends to an existing file; the first line creates it.
        if FileManager.default.fileExists(atPath: historyPath) { append_history(1, historyPath) } else { write_history(historyPath) }
        history_truncate_file(historyPath, 5000)
    }
}
