import SwitchCore

/// `tree stats --person FILE` (issue 31): beside the perfect user's figures, the seconds the
/// simulated person takes to each item with each method (`PersonReach`), errors included.
extension TreeStatsCommand {
    struct PersonRow {
        var method: String
        var switches: Int
        var figures: PersonReach.Figures
    }

    static func personRows(tree: ElementTree, profile: Profile, person: PersonModel, progress: (String) -> Void) -> [PersonRow] {
        let model = ScanModel(tree: tree)
        var rows: [PersonRow] = []
        for (name, grouping) in [("linear", Grouping.none), ("group scanning", .containers), ("row-column", .rowColumn), ("auto grouping", .auto)] {
            progress("\(person.name): \(name)")
            rows.append(PersonRow(method: name, switches: 1, figures: PersonReach.figures(
                tree: tree, model: model, profile: PersonReach.profile(profile, grouping: grouping), person: person)))
        }
        for k in ColorGroups.switchRange {
            progress("\(person.name): group selection, \(k) switches")
            rows.append(PersonRow(method: "\(k) switches", switches: k, figures: PersonReach.figures(
                tree: tree, model: model, profile: PersonReach.profile(profile, grouping: .none, groupSwitches: k), person: person)))
        }
        return rows
    }

    static func personText(_ rows: [PersonRow], person: PersonModel) -> [String] {
        var out = ["with \(TerminalText.line(person.name)) (reaction \(formatNumber(person.reactionTime.mean)) ± \(formatNumber(person.reactionTime.sd)) s):"]
        let width = rows.map(\.method.count).max() ?? 0
        for r in rows {
            let f = r.figures
            var s = "  " + r.method + String(repeating: " ", count: width - r.method.count + 2)
            s += "average \(formatFixed(f.averageTime.seconds, 3)) s, worst \(formatFixed(f.worstTime.seconds, 3)) s"
            s += "; selections \(f.counts.selections), late \(f.counts.late), missed \(f.counts.missed), extra presses \(f.counts.extraPresses), corrections \(f.counts.corrections), wrong activations \(f.wrong)"
            if f.unreached > 0 { s += "; \(f.unreached) not reached in \(formatNumber(PersonReach.limit.seconds)) s" }
            out.append(s)
        }
        return out
    }

    static func personJSON(_ rows: [PersonRow], person: PersonModel) -> JSONOut {
        .object([
            ("name", .string(person.name)),
            ("methods", .array(rows.map { r in
                let f = r.figures
                return JSONOut.object([
                    ("method", .string(r.method)), ("switches", .number(Double(r.switches))),
                    ("averageSeconds", .raw(formatFixed(f.averageTime.seconds, 3))),
                    ("worstSeconds", .raw(formatFixed(f.worstTime.seconds, 3))),
                    ("selections", .number(Double(f.counts.selections))), ("late", .number(Double(f.counts.late))),
                    ("missed", .number(Double(f.counts.missed))), ("extraPresses", .number(Double(f.counts.extraPresses))),
                    ("corrections", .number(Double(f.counts.corrections))), ("wrongActivations", .number(Double(f.wrong))),
                    ("unreached", .number(Double(f.unreached))),
                ])
            })),
        ])
    }
}
