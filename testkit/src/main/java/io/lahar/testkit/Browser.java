package io.lahar.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real browser for tests: headless Chromium (Debian's {@code chromium}) driven through
 * {@code playwright-core} (npm) by a small Node script ({@code browser-driver.mjs}), one page, one
 * command at a time. {@link #start} installs what is missing — {@code apt-get install chromium}
 * when running as root, {@code npm install playwright-core} into {@code tools} — and, only where
 * that cannot be done, aborts the test with a loud message on stderr (never a silent skip).
 * Expressions given to {@link #waitFor} and {@link #eval} run in the page.
 */
public final class Browser implements AutoCloseable {

    /** The npm package and version the driver needs (Node 20 or newer). */
    public static final String PLAYWRIGHT = "playwright-core@1.65.1";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CHROMIUMS = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");

    private final Process node;
    private final Writer in;
    private final BufferedReader out;
    private final String version;
    private int ids;

    private Browser(Process node) throws IOException {
        this.node = node;
        this.in = new java.io.OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
        this.out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
        JsonNode hello = JSON.readTree(readLine(Duration.ofSeconds(90)));
        this.version = hello.path("value").asText();
    }

    /**
     * A browser with a {@code width}×{@code height} viewport; {@code tools} holds the npm packages
     * (kept between runs). Aborts the calling test, loudly, when no browser can be installed here.
     */
    public static Browser start(Path tools, int width, int height) {
        String chromium = chromium().orElse(null);
        if (chromium == null) {
            skipLoudly("no Chromium at " + CHROMIUMS
                    + " and apt-get could not install one (not root, or no package source)");
        }
        Optional<String> problem = playwright(tools);
        if (problem.isPresent()) {
            skipLoudly(problem.get());
        }
        try {
            Path driver = tools.resolve("browser-driver.mjs");
            try (InputStream script = Browser.class.getResourceAsStream("browser-driver.mjs")) {
                Files.copy(script, driver, StandardCopyOption.REPLACE_EXISTING);
            }
            Process p = new ProcessBuilder(
                            "node", driver.toString(), chromium, Integer.toString(width), Integer.toString(height))
                    .directory(tools.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(
                            tools.resolve("browser-driver.log").toFile()))
                    .start();
            return new Browser(p);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not start the browser driver (see " + tools.resolve("browser-driver.log") + ")", e);
        }
    }

    /** The browser's version, e.g. {@code 156.0.8078.114}. */
    public String version() {
        return version;
    }

    public void go(String url) {
        call(command("goto").put("url", url), Duration.ofSeconds(60));
    }

    /** Waits until {@code expression} is truthy in the page and returns its value. */
    public JsonNode waitFor(String expression, Duration timeout) {
        ObjectNode c = command("waitFor").put("expr", expression).put("timeoutMs", timeout.toMillis());
        return call(c, timeout.plusSeconds(10));
    }

    public JsonNode eval(String expression) {
        return call(command("eval").put("expr", expression), Duration.ofSeconds(30));
    }

    public void click(String selector) {
        call(command("click").put("selector", selector), Duration.ofSeconds(30));
    }

    public void fill(String selector, String value) {
        call(command("fill").put("selector", selector).put("value", value), Duration.ofSeconds(30));
    }

    public void select(String selector, String value) {
        call(command("select").put("selector", selector).put("value", value), Duration.ofSeconds(30));
    }

    /** A screenshot of the viewport (or the whole page) to {@code file}. */
    public Path screenshot(Path file, boolean fullPage) {
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        call(command("screenshot").put("path", file.toString()).put("fullPage", fullPage), Duration.ofSeconds(60));
        return file;
    }

    /** The page's script errors and its requests to other origins since the last call. */
    public JsonNode problems() {
        return call(command("errors"), Duration.ofSeconds(10));
    }

    private ObjectNode command(String op) {
        return JSON.createObjectNode().put("id", ++ids).put("op", op);
    }

    private synchronized JsonNode call(ObjectNode command, Duration timeout) {
        try {
            in.write(JSON.writeValueAsString(command) + "\n");
            in.flush();
            JsonNode answer = JSON.readTree(readLine(timeout));
            if (!answer.path("ok").asBoolean()) {
                throw new AssertionError("browser: " + command.path("op").asText() + " failed: "
                        + answer.path("error").asText());
            }
            return answer.path("value");
        } catch (IOException e) {
            throw new UncheckedIOException("the browser driver stopped", e);
        }
    }

    private String readLine(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!out.ready()) {
            if (!node.isAlive()) {
                throw new IOException("the browser driver exited with " + node.exitValue());
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("no answer from the browser driver within " + timeout);
            }
            sleep(20);
        }
        String line = out.readLine();
        if (line == null) {
            throw new IOException("the browser driver closed its output");
        }
        return line;
    }

    @Override
    public void close() {
        try {
            in.close();
            if (!node.waitFor(20, TimeUnit.SECONDS)) {
                node.descendants().forEach(ProcessHandle::destroyForcibly);
                node.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            node.descendants().forEach(ProcessHandle::destroyForcibly);
            node.destroyForcibly();
        }
    }

    /** Debian's Chromium, installed with apt-get when missing and this process may. */
    static Optional<String> chromium() {
        Optional<String> found =
                CHROMIUMS.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst();
        if (found.isPresent() || !root() || !Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            return found;
        }
        System.err.println("[browser] installing Debian's chromium (apt-get update && apt-get install -y chromium)...");
        run(Duration.ofMinutes(5), "apt-get", "update");
        run(Duration.ofMinutes(10), "apt-get", "install", "-y", "chromium");
        return CHROMIUMS.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst();
    }

    /** Node 20+ and playwright-core in {@code tools}; empty when ready, else what is missing. */
    static Optional<String> playwright(Path tools) {
        List<String> version = run(Duration.ofSeconds(30), "node", "--version");
        if (version.isEmpty() || !version.get(0).matches("v(\\d{3,}|[2-9]\\d)\\..*")) {
            return Optional.of("no Node.js 20 or newer on the PATH (found: " + version + ")");
        }
        Path installed = tools.resolve("node_modules/playwright-core/package.json");
        String wanted = PLAYWRIGHT.substring(PLAYWRIGHT.lastIndexOf('@') + 1);
        try {
            Files.createDirectories(tools);
            if (!Files.isRegularFile(installed)
                    || !Files.readString(installed).contains("\"version\": \"" + wanted + "\"")) {
                System.err.println("[browser] npm install " + PLAYWRIGHT + " into " + tools);
                run(
                        Duration.ofMinutes(5),
                        "npm",
                        "install",
                        "--no-save",
                        "--no-audit",
                        "--no-fund",
                        "--prefix",
                        tools.toString(),
                        PLAYWRIGHT);
            }
            return Files.isRegularFile(installed)
                    ? Optional.empty()
                    : Optional.of("npm could not install " + PLAYWRIGHT + " into " + tools);
        } catch (IOException e) {
            return Optional.of("could not prepare " + tools + ": " + e);
        }
    }

    private static void skipLoudly(String why) {
        String banner = "!".repeat(100);
        System.err.println(banner);
        System.err.println("!!! BROWSER TEST SKIPPED: " + why);
        System.err.println("!!! Install Debian's chromium (apt-get install -y chromium) and Node.js 20+ to run it.");
        System.err.println(banner);
        Assumptions.abort("browser test skipped: " + why);
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Runs a command; its output lines, or none when it could not run or failed. */
    private static List<String> run(Duration timeout, String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            List<String> lines = new ArrayList<>();
            Thread reader = new Thread(
                    () -> new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
                            .lines()
                            .forEach(lines::add));
            reader.start();
            boolean done = p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly();
            }
            reader.join(5000);
            return done && p.exitValue() == 0 ? lines : List.of();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
