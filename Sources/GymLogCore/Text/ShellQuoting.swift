/// `word` as a POSIX shell reads it back as one word: unchanged when it holds only characters
/// no shell treats specially, else in single quotes (a `'` inside written `'\''`). Hints that
/// print a command use it, so a name like `Bench Press (Barbell)` pastes into bash, zsh or
/// fish as it was meant.
public func shellQuoted(_ word: String) -> String {
    let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { c in
        (c.value < 0x80 && (c.properties.isAlphabetic || c.properties.numericType != nil)) || "-_./:=@%+,".unicodeScalars.contains(c)
    }
    if plain { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// A command line whose words a shell reads back as `words`.
public func shellCommand(_ words: [String]) -> String { words.map(shellQuoted).joined(separator: " ") }

/// A word as a shell hands it to completion while it is being typed, read as the shell will
/// read it: `Bench\ Press\ \(` is `Bench Press (`, `"Bench Pr` and `'Bench Pr` are `Bench Pr`
/// (the quote not closed yet). A backslash escapes the next character outside single quotes.
public func shellUnquoted(_ typed: String) -> String {
    var out = "", quote: Character?, escaped = false
    for c in typed {
        if escaped { out.append(c); escaped = false; continue }
        switch (c, quote) {
        case ("\\", nil), ("\\", "\""): escaped = true
        case ("'", nil), ("\"", nil): quote = c
        case (let q, let open?) where q == open: quote = nil
        default: out.append(c)
        }
    }
    return out
}
