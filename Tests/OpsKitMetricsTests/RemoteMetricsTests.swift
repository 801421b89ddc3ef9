import OpsKitMetrics
import OpsMetricsServer
import Testing

@Suite struct RemoteMetricsTests {
    /// Remote metrics for queue "images" on a fresh Prometheus registry.
    struct Fixture {
        let endpoint = PrometheusEndpoint()
        let metrics: RemoteMetrics

        init() {
            metrics = RemoteMetrics(
                queueName: "images", roles: ["observer", "controller"], resyncReasons: ["asked", "lagged"],
                commands: ["cancel", "suspend"], results: ["ok", "forbidden"], factory: endpoint.factory)
        }

        func scrape() -> Exposition { Exposition(endpoint.exposition()) }
    }

    @Test func everyLabelValueExistsAtZero() {
        let scraped = Fixture().scrape()
        var expected: [String] = []
        for role in ["observer", "controller"] {
            expected.append(#"opsdash_remote_clients{queue="images",role="\#(role)"}"#)
        }
        for reason in ["asked", "lagged"] {
            expected.append(#"opsdash_remote_resyncs_total{queue="images",reason="\#(reason)"}"#)
        }
        for cmd in ["cancel", "suspend"] {
            for result in ["ok", "forbidden"] {
                expected.append(#"opsdash_remote_commands_total{queue="images",cmd="\#(cmd)",result="\#(result)"}"#)
            }
        }
        for series in expected { #expect(scraped[series] == 0, "\(series)") }
        #expect(scraped.series.count == expected.count, "\(scraped.series.keys.sorted())")
        for name in MetricName.allCases where name.isRemote {
            #expect(scraped.types[name.rawValue] == name.type, "\(name.rawValue)")
        }
    }

    @Test func updatesSetGaugesAndMoveCountersOnlyUp() {
        let fixture = Fixture()
        fixture.metrics.update(
            clients: ["observer": 2, "controller": 1], resyncs: ["lagged": 3],
            commands: ["cancel": ["ok": 4, "forbidden": 1], "explode": ["ok": 9], "suspend": ["not_found": 2]])
        var scraped = fixture.scrape()
        #expect(scraped[#"opsdash_remote_clients{queue="images",role="observer"}"#] == 2)
        #expect(scraped[#"opsdash_remote_clients{queue="images",role="controller"}"#] == 1)
        #expect(scraped[#"opsdash_remote_resyncs_total{queue="images",reason="lagged"}"#] == 3)
        #expect(scraped[#"opsdash_remote_resyncs_total{queue="images",reason="asked"}"#] == 0)
        #expect(scraped[#"opsdash_remote_commands_total{queue="images",cmd="cancel",result="ok"}"#] == 4)
        #expect(scraped[#"opsdash_remote_commands_total{queue="images",cmd="cancel",result="forbidden"}"#] == 1)
        #expect(scraped.series.count == 8, "values not created at init are ignored: \(scraped.series.keys.sorted())")
        // Totals again: nothing counted twice; viewers gone.
        fixture.metrics.update(
            clients: [:], resyncs: ["lagged": 3, "asked": 1], commands: ["cancel": ["ok": 5, "forbidden": 1]])
        scraped = fixture.scrape()
        #expect(scraped[#"opsdash_remote_clients{queue="images",role="observer"}"#] == 0)
        #expect(scraped[#"opsdash_remote_resyncs_total{queue="images",reason="lagged"}"#] == 3)
        #expect(scraped[#"opsdash_remote_resyncs_total{queue="images",reason="asked"}"#] == 1)
        #expect(scraped[#"opsdash_remote_commands_total{queue="images",cmd="cancel",result="ok"}"#] == 5)
        #expect(scraped.labelNames == ["queue", "role", "reason", "cmd", "result"], "no per-connection label")
    }

    @Test(.enabled(if: prometheusToolsEnabled)) func promtoolAcceptsTheExposition() throws {
        let fixture = Fixture()
        fixture.metrics.update(clients: ["observer": 1], resyncs: ["asked": 1], commands: ["cancel": ["ok": 1]])
        let text = fixture.endpoint.exposition()
        #expect(text.contains("# HELP opsdash_remote_commands_total "))
        let result = try promtool(["check", "metrics"], input: text)
        #expect(result.status == 0, "\(result.output)")
    }
}
