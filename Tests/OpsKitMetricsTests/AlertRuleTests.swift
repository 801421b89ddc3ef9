import Foundation
import Testing

/// The documented alert rule is valid and fires exactly when a queue is stuck.
@Suite struct AlertRuleTests {
    static let rules = repositoryRoot.appendingPathComponent("docs/prometheus/opsdash-alerts.yml").path

    @Test(.enabled(if: prometheusToolsEnabled)) func promtoolAcceptsTheRules() throws {
        let result = try promtool(["check", "rules", Self.rules])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: prometheusToolsEnabled)) func stuckQueueFiresAfterFiveMinutesAndOnlyThere() throws {
        // Three instances for 10 minutes: stuck (work ready, nothing executing, not paused),
        // paused, and busy. Only the stuck one alerts, and only once 5 minutes have passed.
        let test = """
            rule_files:
              - \(Self.rules)
            evaluation_interval: 1m
            tests:
              - interval: 1m
                input_series:
                  - series: 'opsdash_queue_operations{job="opsdash",instance="stuck",queue="q",state="ready"}'
                    values: '3x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="stuck",queue="q",state="waiting"}'
                    values: '2x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="stuck",queue="q",state="executing"}'
                    values: '0x10'
                  - series: 'opsdash_queue_suspended{job="opsdash",instance="stuck",queue="q"}'
                    values: '0x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="paused",queue="q",state="ready"}'
                    values: '3x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="paused",queue="q",state="waiting"}'
                    values: '0x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="paused",queue="q",state="executing"}'
                    values: '0x10'
                  - series: 'opsdash_queue_suspended{job="opsdash",instance="paused",queue="q"}'
                    values: '1x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="busy",queue="q",state="ready"}'
                    values: '3x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="busy",queue="q",state="waiting"}'
                    values: '0x10'
                  - series: 'opsdash_queue_operations{job="opsdash",instance="busy",queue="q",state="executing"}'
                    values: '2x10'
                  - series: 'opsdash_queue_suspended{job="opsdash",instance="busy",queue="q"}'
                    values: '0x10'
                alert_rule_test:
                  - eval_time: 4m
                    alertname: OpsdashQueueStuck
                    exp_alerts: []
                  - eval_time: 6m
                    alertname: OpsdashQueueStuck
                    exp_alerts:
                      - exp_labels:
                          severity: warning
                          job: opsdash
                          instance: stuck
                          queue: q
                        exp_annotations:
                          summary: "Queue q on stuck has work waiting and nothing executing"
                          description: "5 operations waiting for 5 minutes with an empty, unpaused queue."

            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-alert-test-\(getpid()).yml")
        try test.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try promtool(["test", "rules", file.path])
        #expect(result.status == 0, "\(result.output)")
    }
}
