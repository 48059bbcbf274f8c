package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The chart's alerts and dashboard: both render only when enabled; the rendered rules pass
 * {@code promtool check rules} and every alert fires on its recorded series in promtool's rule unit tests
 * ({@code src/test/resources/promtool/alerts-test.yaml}); every alert has a runbook paragraph in
 * {@code docs/operations.md}. The promtool parts are skipped, with the reason, where promtool is absent
 * (Debian: {@code apt-get install prometheus}, as {@code .ci/run} does).
 */
class MonitoringTest {

    private static final Path WORK = Path.of("target", "promtool");
    private static final Path RUNBOOK = Path.of("..", "docs", "operations.md");

    /**
     * With Borders (the hostNetwork example's border-a and border-b: some alerts are per configured Border),
     * its ServiceMonitors and cert-manager issuer, so that every rule renders; every threshold is the chart's
     * default (the example sets none).
     */
    private static Map<String, Object> prometheusRule() {
        return ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("metrics.prometheusRule.enabled", true)
                .manifests()
                .named("PrometheusRule", "egress-egress-platform");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules(Map<String, Object> rule) {
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Map<String, Object> group : Manifests.<List<Map<String, Object>>>at(rule, "spec", "groups")) {
            rules.addAll((List<Map<String, Object>>) group.get("rules"));
        }
        return rules;
    }

    private static Set<String> alertNames(Map<String, Object> rule) {
        Set<String> names = new TreeSet<>();
        rules(rule).forEach(r -> names.add((String) r.get("alert")));
        return names;
    }

    @Test
    void alertsAndDashboardAreOffByDefault() {
        Manifests manifests = ChartRendering.render().manifests();
        assertThat(manifests.ofKind("PrometheusRule")).isEmpty();
        assertThat(manifests.names()).noneMatch(n -> n.endsWith("-dashboard"));
    }

    @Test
    void theExampleUsedForThePromtoolTestsKeepsTheChartsAlertDefaults() {
        Map<String, Object> example = ChartRendering.yaml()
                .load(ChartRendering.read(Path.of("egress-platform", "examples", "values-hostnetwork.yaml")));
        assertThat(Manifests.<Map<String, Object>>at(example, "metrics")).doesNotContainKey("prometheusRule");
        assertThat(Manifests.<Map<String, Object>>at(example, "tls", "certManager"))
                .containsOnlyKeys("issuerRef");
    }

    @Test
    void certificateAlertFiresUnderHalfOfRenewBeforeSoA72hCertificateNeverTriggersIt() {
        Map<String, Object> defaults = rule("EgressCertificateExpiresSoon", prometheusRule());
        // 72h certificates renewed 24h ahead: under 12h left, renewal is overdue.
        assertThat(((String) defaults.get("expr")).strip()).endsWith("< 43200");
        Map<String, Object> custom = rule(
                "EgressCertificateExpiresSoon",
                ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("metrics.prometheusRule.enabled", true)
                        .set("tls.certManager.duration", "720h")
                        .set("tls.certManager.renewBefore", "240h")
                        .manifests()
                        .named("PrometheusRule", "egress-egress-platform"));
        assertThat(((String) custom.get("expr")).strip()).endsWith("< 432000");
        assertThatThrownBy(ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("metrics.prometheusRule.enabled", true)
                        .set("tls.certManager.renewBefore", "72h")::text)
                .hasMessageContaining("renewBefore (72h) must be below tls.certManager.duration (72h)");
    }

    @Test
    void absentAlertsComeOnlyWithTheServiceMonitorsAndTheCertificateAlertOnlyWithCertManager() {
        Map<String, Object> unscraped = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("metrics.prometheusRule.enabled", true)
                .set("metrics.serviceMonitor.enabled", false)
                .manifests()
                .named("PrometheusRule", "egress-egress-platform");
        assertThat(alertNames(unscraped))
                .doesNotContain("EgressAppAbsent", "EgressBorderPodNotRunning")
                .contains("EgressCertificateExpiresSoon");
        assertThat(alertNames(prometheusRule())).contains("EgressAppAbsent", "EgressBorderPodNotRunning");
        Map<String, Object> ownSecrets = ChartRendering.render()
                .set("metrics.prometheusRule.enabled", true)
                .manifests()
                .named("PrometheusRule", "egress-egress-platform");
        assertThat(alertNames(ownSecrets)).doesNotContain("EgressCertificateExpiresSoon");
    }

    private static Map<String, Object> rule(String alert, Map<String, Object> prometheusRule) {
        return rules(prometheusRule).stream()
                .filter(r -> alert.equals(r.get("alert")))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theRuleCarriesTheOnCallAlertsWithRunbookLinksAndFollowsMaxStaleness() {
        Map<String, Object> rule = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("metrics.prometheusRule.enabled", true)
                .set("app.routing.maxStaleness", "1m")
                .manifests()
                .named("PrometheusRule", "egress-egress-platform");

        assertThat(alertNames(rule))
                .containsExactlyInAnyOrder(
                        "EgressBorderPodNotRunning",
                        "EgressTokenFileRevoked",
                        "EgressBorderAllIpsDisabled",
                        "EgressTenantsFileRefused",
                        "EgressDedicatedTenantWithoutUsableIp",
                        "EgressRoutingSnapshotStale",
                        "EgressIpClaimedByTwoBorders",
                        "EgressDedicatedIpClaimedByTwoBorders",
                        "EgressAnnouncementsRejected",
                        "EgressBorderNotRegistered",
                        "EgressIdentityMismatch",
                        "EgressCircuitBreakerOpen",
                        "EgressServerErrorsRising",
                        "EgressAppAbsent",
                        "EgressRegistryLinkDown",
                        "EgressCertificateExpiresSoon",
                        "EgressRetryBudgetExhausted",
                        "EgressProxyTunnelsFailingClosed",
                        "EgressDurableBacklogGrowing",
                        "EgressDurableOldestDueTooOld",
                        "EgressDurableDeadRising",
                        "EgressStandingClaimsNotStored");
        for (Map<String, Object> r : rules(rule)) {
            Map<String, Object> annotations = Manifests.at(r, "annotations");
            assertThat((String) annotations.get("runbook_url"))
                    .as("runbook of %s", r.get("alert"))
                    .endsWith("operations.md#" + ((String) r.get("alert")).toLowerCase());
        }
        Map<String, Object> stale = rules(rule).stream()
                .filter(r -> "EgressRoutingSnapshotStale".equals(r.get("alert")))
                .findFirst()
                .orElseThrow();
        assertThat((String) stale.get("expr")).endsWith("> 30");
        Map<String, Object> oldestDue = rules(rule).stream()
                .filter(r -> "EgressDurableOldestDueTooOld".equals(r.get("alert")))
                .findFirst()
                .orElseThrow();
        assertThat((String) oldestDue.get("expr")).endsWith("> 900"); // metrics.prometheusRule.durable.oldestDue 15m
        assertThat(Manifests.<Map<String, Object>>at(rule, "metadata", "labels"))
                .containsKey("app.kubernetes.io/instance");
    }

    @Test
    void everyAlertHasARunbookParagraph() {
        String runbook = ChartRendering.read(RUNBOOK);
        Set<String> headings = new TreeSet<>();
        Matcher m = Pattern.compile("^### (Egress\\w+)", Pattern.MULTILINE).matcher(runbook);
        while (m.find()) {
            headings.add(m.group(1));
        }
        assertThat(headings).containsAll(alertNames(prometheusRule()));
    }

    @Test
    void renderedRulesPassPromtoolCheckAndEveryAlertFiresInItsUnitTest() throws Exception {
        Optional<Path> promtool = promtool();
        assumeTrue(
                promtool.isPresent(),
                "promtool not on PATH: rule check and unit tests skipped "
                        + "(Debian: apt-get install prometheus, as .ci/run does)");
        Map<String, Object> rule = prometheusRule();
        Files.createDirectories(WORK);
        Map<String, Object> groups = Map.of("groups", Manifests.at(rule, "spec", "groups"));
        Files.writeString(WORK.resolve("rules.yaml"), ChartRendering.yaml().dump(groups));
        Files.writeString(
                WORK.resolve("rules-for-tests.yaml"), ChartRendering.yaml().dump(withoutAnnotations(rule)));
        Path tests = WORK.resolve("alerts-test.yaml");
        Files.copy(ChartRendering.resource("promtool/alerts-test.yaml"), tests, StandardCopyOption.REPLACE_EXISTING);

        Result check = run(promtool.get(), "check", "rules", "rules.yaml");
        assertThat(check.exit()).as(check.output()).isZero();
        Result unit = run(promtool.get(), "test", "rules", "alerts-test.yaml");
        assertThat(unit.exit()).as(unit.output()).isZero();

        // A test per alert: every alert of the rule is the subject of at least one firing expectation.
        String testText = Files.readString(tests);
        Set<String> tested = new TreeSet<>();
        Matcher m = Pattern.compile("alertname: (\\w+)\\s+exp_alerts:\\s*\\n\\s+- exp_labels")
                .matcher(testText);
        while (m.find()) {
            tested.add(m.group(1));
        }
        assertThat(tested).containsAll(alertNames(rule));
    }

    @Test
    void dashboardIsAConfigMapTheGrafanaSidecarPicksUp() {
        Map<String, Object> map = ChartRendering.render()
                .set("metrics.grafanaDashboard.enabled", true)
                .manifests()
                .named("ConfigMap", "egress-egress-platform-dashboard");
        assertThat(Manifests.<Map<String, Object>>at(map, "metadata", "labels"))
                .containsEntry("grafana_dashboard", "1");
        String json = Manifests.<Map<String, Object>>at(map, "data")
                .get("egress-platform.json")
                .toString();
        Map<String, Object> dashboard = ChartRendering.yaml().load(json); // JSON is YAML
        List<String> titles = Manifests.<List<Map<String, Object>>>at(dashboard, "panels").stream()
                .map(p -> (String) p.get("title"))
                .toList();
        assertThat(titles)
                .contains(
                        "Deliveries by outcome",
                        "Latency per hop (p50 / p99)",
                        "Traffic per egress IP (App's Border calls)",
                        "Errors per egress IP",
                        "Registry propagation lag (publish to App)",
                        "Routing snapshot age per App",
                        "Proxy tunnels open / opened / refused",
                        "Proxy tunnel connect time (mean / max) / closes by reason",
                        "HTTP answers by status and uri",
                        "Durable backlog (due, not attempted) per tenant",
                        "Oldest due durable webhook / buckets held per App",
                        "Dead durable webhooks kept per tenant",
                        "JVM heap used / max per pod",
                        "JVM GC pause time / live threads per pod",
                        "Process CPU per pod");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutAnnotations(Map<String, Object> rule) {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (Map<String, Object> group : Manifests.<List<Map<String, Object>>>at(rule, "spec", "groups")) {
            Map<String, Object> copy = new LinkedHashMap<>(group);
            List<Map<String, Object>> rules = new ArrayList<>();
            for (Map<String, Object> r : (List<Map<String, Object>>) group.get("rules")) {
                Map<String, Object> stripped = new LinkedHashMap<>(r);
                stripped.remove("annotations");
                rules.add(stripped);
            }
            copy.put("rules", rules);
            groups.add(copy);
        }
        return Map.of("groups", groups);
    }

    private record Result(int exit, String output) {}

    private static Result run(Path promtool, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .directory(WORK.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("promtool finished")
                .isTrue();
        return new Result(process.exitValue(), output);
    }

    private static Optional<Path> promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "promtool");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
