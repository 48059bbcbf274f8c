package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.egress.discovery.web.testing.RecordingSink;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator page in a real browser (headless Chromium through chromedriver) against the real
 * platform as processes, laid out like {@code ./run-local.sh}: border-a (127.0.0.2, .3), border-b
 * (.4, .5), one App, acme dedicated to .3 and .4. Skipped, with the reason, when no Chromium or
 * chromedriver is installed (Debian: {@code apt-get install chromium chromium-driver}).
 * Screenshots go to {@code target/screenshots/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperatorPageIT {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration TILE_CHANGE = Duration.ofSeconds(2);

    private Platform platform;
    private RecordingSink sink;
    private ChromeDriver browser;
    private Path profile;

    @BeforeAll
    void start() throws Exception {
        Optional<Path> chromium = executable("EGRESS_CHROMIUM", "chromium", "chromium-browser", "google-chrome");
        Optional<Path> driver = executable("EGRESS_CHROMEDRIVER", "chromedriver");
        assumeTrue(
                chromium.isPresent() && driver.isPresent(),
                "operator page browser test skipped: no "
                        + (chromium.isEmpty() ? "chromium" : "chromedriver")
                        + " on PATH (Debian: apt-get install chromium "
                        + "chromium-driver, as .ci/run does; or set EGRESS_CHROMIUM / EGRESS_CHROMEDRIVER)");
        sink = RecordingSink.start();
        // The local layout with durable delivery on, counted every second for the page's durable panel.
        Platform.Layout local = Platform.Layout.LOCAL;
        platform = Platform.start(new Platform.Layout(
                local.borders(),
                local.tenants(),
                local.apps(),
                List.of(),
                List.of(
                        "--egress.delivery.store.connection-string={node}",
                        "--egress.delivery.backlog.sample-interval=1s")));

        profile = Files.createTempDirectory("operator-page-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.get().toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--window-size=1280,800",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.get().toFile())
                .usingAnyFreePort()
                .withLogFile(platform.logs.resolve("chromedriver.log").toFile())
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    @Test
    void operatorSeesTheFleetDrainsAnIpWithTheKeyboardAndMouseAndDeliveriesMove() throws Exception {
        browser.get(platform.appUri(0, "/ops/").toString());
        WebElement token = new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        token.sendKeys(Platform.OPERATOR_TOKEN, Keys.ENTER); // signs in with the keyboard
        assertThat(browser.getCurrentUrl()).doesNotContain(Platform.OPERATOR_TOKEN);

        // Both Borders and the four IPs, with acme's tenants on its tiles.
        new WebDriverWait(browser, Duration.ofSeconds(15))
                .until(d -> tiles().size() == 4
                        && d.findElements(By.cssSelector("#borders tr[data-border]"))
                                        .size()
                                == 2);
        assertThat(tiles().stream().map(t -> t.getAttribute("data-ip")).toList())
                .containsExactly("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
        assertThat(browser.findElements(By.cssSelector("#borders tr[data-border]")))
                .extracting(r -> r.getAttribute("data-border"))
                .containsExactly("border-a", "border-b");
        assertThat(tile("127.0.0.3").getText())
                .contains("ACTIVE")
                .contains("acme")
                .contains("border-a");
        assertThat(tile("127.0.0.2").getText()).contains("shared pool");
        screenshot("operator-page-fleet");

        assertThat(deliverAcme()).isEqualTo("127.0.0.3");

        // Drain 127.0.0.3 with the mouse, through the confirmation.
        tile("127.0.0.3")
                .findElement(By.cssSelector("button[data-action=DRAINING]"))
                .click();
        WebElement dialog = browser.findElement(By.id("confirm"));
        assertThat(dialog.isDisplayed()).isTrue();
        assertThat(dialog.getText()).contains("127.0.0.3").contains("DRAINING");
        screenshot("operator-page-confirm");
        browser.findElement(By.id("confirm-ok")).click();
        new WebDriverWait(browser, TILE_CHANGE)
                .until(d -> "DRAINING".equals(tile("127.0.0.3").getAttribute("data-status")));
        sink.clear();
        for (int i = 0; i < 5; i++) {
            assertThat(deliverAcme()).isEqualTo("127.0.0.4");
        }
        assertThat(peers()).containsExactly("127.0.0.4");
        // The page's live view follows: App's calls through 127.0.0.4 show up on its tile without a reload.
        new WebDriverWait(browser, Duration.ofSeconds(5))
                .until(d -> tile("127.0.0.4").getText().contains("last min: 5 calls"));
        screenshot("operator-page-draining");

        // Activate with the keyboard only: focus the button, Enter; in the dialog Tab to Confirm, Enter.
        WebElement activate = tile("127.0.0.3").findElement(By.cssSelector("button[data-action=ACTIVE]"));
        browser.executeScript("arguments[0].focus()", activate);
        browser.switchTo().activeElement().sendKeys(Keys.ENTER);
        new WebDriverWait(browser, Duration.ofSeconds(5))
                .until(d -> d.findElement(By.id("confirm")).isDisplayed());
        browser.switchTo().activeElement().sendKeys(Keys.TAB);
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("confirm-ok");
        browser.switchTo().activeElement().sendKeys(Keys.ENTER);
        new WebDriverWait(browser, TILE_CHANGE)
                .until(d -> "ACTIVE".equals(tile("127.0.0.3").getAttribute("data-status")));
        assertThat(deliverAcme()).isEqualTo("127.0.0.3");
        screenshot("operator-page-active-again");

        // A durable webhook the target refuses for good (410) is dead at once: the durable panel counts it for acme.
        sink.reply(new RecordingSink.Reply(410, "gone", Duration.ZERO, Map.of()));
        HttpRequest.Builder async = HttpRequest.newBuilder(platform.appUri(0, "/v1/deliveries"))
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"tenantId\":\"acme\",\"url\":\"" + sink.baseUri() + "/hooks/acme\",\"payload\":{\"n\":2}}"))
                .header("Content-Type", "application/json")
                .header("Prefer", "respond-async");
        Http.Response accepted = platform.http.send(async, Platform.API_TOKEN);
        assertThat(accepted.status()).as(accepted.text()).isEqualTo(202);
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(d -> d.findElement(By.id("durable-panel")).isDisplayed()
                        && !d.findElements(By.cssSelector("#durable tr[data-tenant='acme'] .dead"))
                                .isEmpty()
                        && "1"
                                .equals(d.findElement(By.cssSelector("#durable tr[data-tenant='acme'] .dead"))
                                        .getText()));
        screenshot("operator-page-durable");
        sink.reply(RecordingSink.Reply.ok());

        // The token never reached a URL: not the page's, not the history's.
        assertThat(browser.getCurrentUrl()).doesNotContain(Platform.OPERATOR_TOKEN);
        Object stored = browser.executeScript("return sessionStorage.getItem('egress.operatorToken')");
        assertThat(stored).isEqualTo(Platform.OPERATOR_TOKEN);
        assertThat(platform.apps.get(0).logText()).doesNotContain(Platform.OPERATOR_TOKEN);
    }

    private List<WebElement> tiles() {
        return browser.findElements(By.cssSelector("#ips li.tile"));
    }

    private WebElement tile(String ip) {
        return browser.findElement(By.cssSelector("#ips li.tile[data-ip='" + ip + "']"));
    }

    /** Sends one acme webhook through App and returns the source IP the sink saw it from. */
    private String deliverAcme() {
        int before = sink.received().size();
        Http.Response response = platform.http.post(
                platform.appUri(0, "/v1/deliveries"),
                Platform.API_TOKEN,
                "{\"tenantId\":\"acme\",\"url\":\"" + sink.baseUri() + "/hooks/acme\",\"payload\":{\"n\":1}}");
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).until(() -> sink.received().size() > before);
        return sink.received().get(sink.received().size() - 1).peer().getHostAddress();
    }

    private Set<String> peers() {
        return sink.received().stream().map(r -> r.peer().getHostAddress()).collect(Collectors.toSet());
    }

    private void screenshot(String name) throws IOException {
        Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static Optional<Path> executable(String override, String... names) {
        String configured = System.getenv(override);
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        String pathEnv = System.getenv().getOrDefault("PATH", "");
        for (String dir : pathEnv.split(File.pathSeparator)) {
            for (String name : names) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
