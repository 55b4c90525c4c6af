import Foundation
import GymLogCore
import Testing

@Suite struct ChartTests {
    let format = { (v: Double) -> String in
        let r = (v * 10).rounded() / 10
        return (r == r.rounded() ? String(Int64(r)) : String(format: "%.1f", r)) + "kg"
    }

    /// A rising series with some noise: 60 workouts, one every 3 days from 2025-01-06.
    func rising(_ n: Int = 60) -> [ChartPoint] {
        let start = daysFromCivil(year: 2025, month: 1, day: 6)
        return (0..<n).map { i -> ChartPoint in
            let dip: Double = i % 4 == 0 ? -2 : 0
            return ChartPoint(day: start + Int64(i * 3), value: 100 + Double(i) * 0.5 + dip)
        }
    }

    @Test(arguments: [80, 200])
    func fitsTheWidthAndLabelsBothAxes(width: Int) {
        // Given a rising series
        let points = rising()
        // When it is drawn
        let lines = LineChart.render(points, width: width, height: 12, formatValue: format).map(\.text)
        // Then no line is wider than asked, and the axis row uses the whole width
        #expect(lines.allSatisfy { $0.count <= width })
        #expect(lines.map(\.count).max() == width)
        // The top label is the largest value and the bottom label the smallest
        let maxValue = points.map(\.value).max()!, minValue = points.map(\.value).min()!
        #expect(lines[0].hasPrefix(format(maxValue)))
        #expect(lines[11].trimmingCharacters(in: .whitespaces).hasPrefix(format(minValue)))
        // The first and last dates label the x axis, and the line is drawn in braille
        #expect(lines.last!.trimmingCharacters(in: .whitespaces).hasPrefix("2025-01-06"))
        #expect(lines.last!.hasSuffix(LineChart.dayLabel(points.last!.day)))
        #expect(lines.joined().unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
        #expect(lines[12].contains("└") && lines[12].contains("┬"))
        // More room means more date labels
        let dates = lines.last!.split(separator: " ").count
        #expect(width == 80 ? dates >= 3 : dates >= 8)
    }

    @Test func theHighestPointIsOnTheTopRowAndTheLowestOnTheBottom() {
        let lines = LineChart.render([ChartPoint(day: 0, value: 10), ChartPoint(day: 10, value: 20), ChartPoint(day: 20, value: 15)],
                                     width: 40, height: 5, formatValue: format)
        let plot = lines.prefix(5).map { $0.spans.first { $0.role == .plot }?.text ?? "" }
        #expect(!plot[0].isEmpty && !plot[4].isEmpty)
        #expect(lines[0].text.hasPrefix("20kg ┤"))
        #expect(lines[4].text.hasPrefix("10kg ┤"))
    }

    @Test func onePointIsCentredWithItsValueAndDate() {
        let day = daysFromCivil(year: 2026, month: 3, day: 2)
        let lines = LineChart.render([ChartPoint(day: day, value: 102.5)], width: 80, height: 12, formatValue: format).map(\.text)
        #expect(lines.count == 14)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.filter { $0.contains("102.5kg ┤") }.count == 1)
        #expect(lines.last!.trimmingCharacters(in: .whitespaces) == "2026-03-02")
        let dots = lines.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }
        #expect(dots.count == 1)
    }

    @Test func aFlatSeriesIsOneLevelLineWithOneLabel() {
        let points = (0..<20).map { ChartPoint(day: Int64($0 * 7), value: 100) }
        let lines = LineChart.render(points, width: 80, height: 12, formatValue: format).map(\.text)
        #expect(lines.allSatisfy { $0.count <= 80 })
        let labelled = lines.prefix(12).filter { $0.contains("┤") }
        #expect(labelled.count == 1 && labelled[0].hasPrefix("100kg ┤"))
        let rowsWithDots = lines.prefix(12).filter { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }
        #expect(rowsWithDots.count == 1)
    }

    @Test func thousandsOfPointsAreBucketedIntoTheColumns() {
        // Given ten years of near-daily workouts
        let points = (0..<5000).map { i -> ChartPoint in
            let value: Double = 80 + Double(i % 97) / 3 + Double(i) / 100
            return ChartPoint(day: Int64(i) * 3 / 4, value: value)
        }
        // When drawn at 80 columns
        let started = Date()
        let lines = LineChart.render(points, width: 80, height: 12, formatValue: format).map(\.text)
        // Then it still fits, quickly, and keeps the extremes on the axis
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[0].hasPrefix(format(points.map(\.value).max()!)))
        #expect(lines.count == 14)
    }

    @Test func closeDaysNeverRepeatADateLabel() {
        let lines = LineChart.render([ChartPoint(day: 100, value: 1), ChartPoint(day: 101, value: 2)], width: 200, height: 4,
                                     formatValue: format).map(\.text)
        let dates = lines.last!.split(separator: " ").map(String.init)
        #expect(dates == [LineChart.dayLabel(100), LineChart.dayLabel(101)])
    }

    @Test func noPointsDrawNothing() {
        #expect(LineChart.render([], width: 80, height: 12, formatValue: format).isEmpty)
    }

    @Test func localDaysAndLabels() {
        #expect(LineChart.dayLabel(0) == "1970-01-01")
        #expect(LineChart.dayLabel(-1) == "1969-12-31")
        #expect(LineChart.day(millis: 86_399_999, utcOffsetSeconds: 0) == 0)
        #expect(LineChart.day(millis: 86_399_999, utcOffsetSeconds: 3600) == 1)
        #expect(LineChart.day(millis: -1, utcOffsetSeconds: 0) == -1)
        #expect(LineChart.day(millis: 0, utcOffsetSeconds: -3600) == -1)
    }

    @Test func metricsIgnoreWarmUpsAndCompareInKilograms() {
        let w = UUID(), e = UUID()
        func set(_ kind: SetKind, _ weight: String, _ unit: WeightUnit, _ reps: Int, bodyweight: Bool = false) -> LoggedSet {
            LoggedSet(id: UUID(), workoutID: w, exerciseID: e,
                      values: SetValues(kind: kind, weight: Weight(Fixed(parsing: weight)!, unit), bodyweight: bodyweight, reps: reps),
                      performedAt: 0)
        }
        let sets = [set(.warmup, "140", .kg, 5), set(.working, "100", .kg, 5), set(.working, "225", .lb, 3), set(.drop, "80", .kg, 10)]
        #expect(ChartMetric.weight.value(of: sets, formula: .epley)! == 225 * WeightUnit.kilogramsPerPound)
        #expect(abs(ChartMetric.e1rm.value(of: sets, formula: .epley)! - 100 * (1 + 5.0 / 30)) < 1e-9)
        #expect(abs(ChartMetric.volume.value(of: sets, formula: .epley)! - (500 + 225 * WeightUnit.kilogramsPerPound * 3 + 800)) < 1e-9)
        #expect(ChartMetric.e1rm.value(of: [sets[0]], formula: .epley) == nil)
        #expect(ChartMetric.volume.value(of: [set(.working, "20", .kg, 8, bodyweight: true)], formula: .epley) == nil)
        #expect(ChartMetric.weight.value(of: [set(.working, "20", .kg, 8, bodyweight: true)], formula: .epley) == 20)
    }

    @Test func pullUpsRunsAndPlanksHaveMetricsWithData() {
        // Given a weighted pull-up, an assisted one, a 5 km run and a plank
        let w = UUID(), e = UUID()
        func set(_ values: SetValues) -> LoggedSet { LoggedSet(id: UUID(), workoutID: w, exerciseID: e, values: values, performedAt: 0) }
        let pullups = [set(SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 6)),
                       set(SetValues(weight: Weight(Fixed(-30), .kg), bodyweight: true, reps: 15))]
        let runs = [set(SetValues(durationSeconds: 1460, distance: Distance(Fixed(5), .km))),
                    set(SetValues(durationSeconds: 300, distance: Distance(Fixed(1), .km)))]
        // Then the kind's first metric has data: added weight, pace, time; e1RM would have none
        #expect(ChartMetric.preferred(for: .bodyweight).first == .weight)
        #expect(ChartMetric.e1rm.value(of: pullups, formula: .epley) == nil)
        #expect(ChartMetric.weight.value(of: pullups, formula: .epley) == 20)
        #expect(ChartMetric.reps.value(of: pullups, formula: .epley) == 6, "assisted reps are not the best reps")
        #expect(ChartMetric.preferred(for: .distance).prefix(2) == [.pace, .time])
        #expect(ChartMetric.pace.value(of: runs, formula: .epley) == 292, "the best pace is the lowest: 5 km in 24:20")
        #expect(ChartMetric.time.value(of: runs, formula: .epley) == 1460)
        #expect(ChartMetric.distance.value(of: runs, formula: .epley) == 5000)
        #expect(ChartMetric.preferred(for: .timed).first == .time)
        #expect(ChartMetric.time.value(of: [set(SetValues(durationSeconds: 95))], formula: .epley) == 95)
        #expect(Set(ChartMetric.preferred(for: .weighted)) == Set(ChartMetric.allCases), "every metric is tried before giving up")
    }

    @Test(arguments: 20...120)
    func summaryItemsAreKeptWholeAtEveryWidth(width: Int) {
        // Given the line under a chart
        let items = [LineChart.Item("first 100.5kg", priority: 2),
                     LineChart.Item("best 1234.5kg on 2026-03-02", short: "best 1234.5kg", priority: 0),
                     LineChart.Item("latest 1200.5kg", priority: 1)]
        // When it is fitted
        let kept = LineChart.fit(items, width: width)
        let line = kept.map(\.text).joined(separator: " · ")
        // Then it fits, every item is whole (a form of its own), in order, and the best always stays
        #expect(line.count <= width, "\(line)")
        #expect(kept.allSatisfy { k in k.text == items[k.index].full || k.text == items[k.index].short })
        #expect(kept.map(\.index) == kept.map(\.index).sorted())
        #expect(kept.contains { $0.index == 1 })
        if width >= 61 { #expect(kept.map(\.text) == items.map(\.full)) }
    }
}
