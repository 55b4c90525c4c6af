import ArgumentParser

/// The completion scripts `gymlog --generate-completion-script SHELL` writes: ArgumentParser's,
/// with exercise names offered whole and whatever the case typed. Its bash script filters the
/// names gymlog offers again with `compgen -W`, which compares case-sensitively against the
/// word as typed, escapes included: `Bench\ Press\ \(` and `squ` matched nothing. gymlog has
/// already matched the word as the shell reads it (`shellUnquoted`), case-insensitively, so
/// the bash script takes its names as they are (`complete -o filenames` quotes them), and the
/// zsh one adds them with a case-folding matcher (zsh quotes them itself). fish needs nothing.
enum ShellCompletion {
    /// The script for `shell` (a name ArgumentParser knows), or nil for a shell it does not.
    static func script(for shellName: String) -> String? {
        guard let shell = CompletionShell(rawValue: shellName) else { return nil }
        let generated = Gymlog.completionScript(for: shell)
        switch shell {
        case .bash: return bash(generated)
        case .zsh: return zsh(generated)
        default: return generated
        }
    }

    static let customCall = "__gymlog_add_completions -W \"$(__gymlog_custom_complete "
    static let customFunction = """
        __gymlog_add_custom_completions() {
            # gymlog matched the word as the shell reads it, case-insensitively: keep its names as
            # they are (one a line; `complete -o filenames` quotes them), with no second filter.
            local completion
            while IFS='' read -r completion; do
                [[ -n "${completion}" ]] && COMPREPLY+=("${completion}")
            done <<< "${1}"
        }


        """

    /// ArgumentParser's bash script with exercise names taken as gymlog gives them.
    static func bash(_ generated: String) -> String {
        guard generated.contains(customCall), let at = generated.range(of: "__gymlog_custom_complete() {") else { return generated }
        var script = generated
        script.insert(contentsOf: customFunction, at: at.lowerBound)
        return script.replacingOccurrences(of: customCall, with: "__gymlog_add_custom_completions \"$(__gymlog_custom_complete ")
    }

    static let zshCustomAdd = "        __gymlog_complete \"${completions[@]:0:-1}\"\n"

    /// ArgumentParser's zsh script with exercise names matched whatever the case typed.
    static func zsh(_ generated: String) -> String {
        guard let custom = generated.range(of: "__gymlog_custom_complete() {"),
              let add = generated.range(of: zshCustomAdd, range: custom.upperBound..<generated.endIndex) else { return generated }
        var script = generated
        script.replaceSubrange(add, with: """
                    local -a names=("${completions[@]:0:-1}")
                    compadd -M 'm:{a-zA-Z}={A-Za-z}' -a names

            """)
        return script
    }
}
