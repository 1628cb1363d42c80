package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lahar.core.api.GoDuration;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the simulated kubelet plays for one pod, like one of KWOK's stages: how long its containers
 * run and the exit code they end with.
 * <ul>
 *   <li>duration: the annotation {@value #DURATION} (a Go duration: {@code 10s}, {@code 1m30s},
 *       {@code 500ms}; a bare number is seconds), else the {@code sleep N} found in each
 *       container's command and args (several sleeps add up; the pod ends with its longest
 *       container), else none: the pod runs until it is deleted;</li>
 *   <li>exit code: the annotation {@value #EXIT_CODES} (a comma-separated list: the first value
 *       for job version 0, the second for version 1, …, the last for every later version; the
 *       version is the pod's {@value #JOB_VERSION} annotation, which the engine sets), else the
 *       annotation {@value #EXIT_CODE} (0..255), else 0. Non-zero makes the pod Failed, zero
 *       Succeeded. The list lets a test fail only a job's first run, so that a restart policy
 *       fires once and the restarted job then completes.</li>
 * </ul>
 * A malformed annotation is not fatal: it is reported in {@link #problems()} (with its field path)
 * and ignored.
 *
 * @param duration how long the pod runs, empty for "until deleted"
 * @param exitCode the exit code of every container
 * @param problems why an annotation was ignored, each naming its field
 */
public record PodRunPlan(Optional<Duration> duration, int exitCode, List<String> problems) {

    public static final String DURATION = "lahar.io/sim-duration";
    public static final String EXIT_CODE = "lahar.io/sim-exit-code";
    public static final String EXIT_CODES = "lahar.io/sim-exit-codes";
    /** Set on every pod by the engine (as Volcano's job controller does): the job version it runs for. */
    public static final String JOB_VERSION = "volcano.sh/job-version";

    private static final Pattern BARE_SECONDS = Pattern.compile("^\\d+(\\.\\d+)?$");
    /** {@code sleep 10}, {@code sleep 2s}, {@code sleep 1.5m} as a shell word, not inside another word. */
    private static final Pattern SLEEP =
            Pattern.compile("(?:^|[\\s;&|(])sleep\\s+(\\d+(?:\\.\\d+)?)([smhd]?)(?=$|[\\s;&|)])");

    public PodRunPlan {
        problems = List.copyOf(problems);
    }

    public boolean succeeds() {
        return exitCode == 0;
    }

    public static PodRunPlan of(Pod pod) {
        return of(Serialization.jsonMapper().<JsonNode>valueToTree(pod));
    }

    /** The plan of the pod {@code pod} is the JSON of, read as fabric8's {@code Pod} model reads it. */
    public static PodRunPlan of(JsonNode pod) {
        List<String> problems = new ArrayList<>();
        Map<String, String> annotations = new HashMap<>();
        pod.path("metadata")
                .path("annotations")
                .properties()
                .forEach(a -> annotations.put(a.getKey(), PodStatusTrees.text(a.getValue())));
        Optional<Duration> duration = Optional.empty();
        String durationText = annotations.get(DURATION);
        if (durationText != null) {
            duration = parseDuration(durationText.trim());
            if (duration.isEmpty()) {
                problems.add("metadata.annotations[" + DURATION + "]: \"" + durationText
                        + "\" is not a duration (e.g. 10s, 1m30s, 500ms)");
            } else if (duration.get().isNegative()) {
                problems.add("metadata.annotations[" + DURATION + "]: \"" + durationText + "\" is negative");
                duration = Optional.empty();
            }
        }
        if (duration.isEmpty()) {
            duration = fromSleeps(pod);
        }
        int exitCode = 0;
        String exitText = annotations.get(EXIT_CODE);
        if (exitText != null) {
            exitCode = parseExitCode(exitText, "metadata.annotations[" + EXIT_CODE + "]", problems)
                    .orElse(0);
        }
        String perVersion = annotations.get(EXIT_CODES);
        if (perVersion != null) {
            Optional<Integer> forVersion = exitCodeForVersion(perVersion, jobVersion(annotations, problems), problems);
            if (forVersion.isPresent()) {
                exitCode = forVersion.get();
            }
        }
        return new PodRunPlan(duration, exitCode, problems);
    }

    /**
     * The exit code {@value #EXIT_CODES} gives a job version: its entry at that index, the last entry
     * past the end. Empty (with the problems noted) when any entry is not an exit code, so a typo
     * never silently picks a different code.
     */
    static Optional<Integer> exitCodeForVersion(String text, int version, List<String> problems) {
        String[] entries = text.split(",", -1);
        List<Integer> codes = new ArrayList<>();
        int before = problems.size();
        for (int i = 0; i < entries.length; i++) {
            parseExitCode(entries[i], "metadata.annotations[" + EXIT_CODES + "][" + i + "]", problems)
                    .ifPresent(codes::add);
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(codes.get(Math.min(version, codes.size() - 1)));
    }

    private static int jobVersion(Map<String, String> annotations, List<String> problems) {
        String text = annotations.get(JOB_VERSION);
        if (text == null) {
            return 0;
        }
        try {
            int version = Integer.parseInt(text.trim());
            if (version >= 0) {
                return version;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add("metadata.annotations[" + JOB_VERSION + "]: \"" + text + "\" is not a job version; 0 assumed");
        return 0;
    }

    private static Optional<Integer> parseExitCode(String text, String field, List<String> problems) {
        try {
            int code = Integer.parseInt(text.trim());
            if (code < 0 || code > 255) {
                problems.add(field + ": " + code + " is not an exit code (0..255)");
                return Optional.empty();
            }
            return Optional.of(code);
        } catch (NumberFormatException e) {
            problems.add(field + ": \"" + text + "\" is not a whole number");
            return Optional.empty();
        }
    }

    /**
     * A Go duration ({@code 1h2m3.5s}, {@code .5s}, {@code 300µs}, as {@link GoDuration} reads
     * Kubernetes' durations) or a bare number of seconds; empty if it is neither. A sign is read:
     * {@link #of} refuses a negative one, a duration no pod can run for.
     */
    public static Optional<Duration> parseDuration(String text) {
        if (BARE_SECONDS.matcher(text).matches()) {
            return Optional.of(ofSeconds(new BigDecimal(text)));
        }
        return GoDuration.parse(text);
    }

    /**
     * The pod runs as long as its longest container; a container runs as long as its sleeps. If any
     * container has no sleep, nothing says when it would stop, so the pod keeps running.
     */
    private static Optional<Duration> fromSleeps(JsonNode pod) {
        JsonNode containers = pod.path("spec").path("containers");
        if (containers.isEmpty()) {
            return Optional.empty();
        }
        Duration longest = Duration.ZERO;
        for (JsonNode container : containers) {
            Optional<Duration> sleeps = sleepsOf(container);
            if (sleeps.isEmpty()) {
                return Optional.empty();
            }
            if (sleeps.get().compareTo(longest) > 0) {
                longest = sleeps.get();
            }
        }
        return Optional.of(longest);
    }

    static Optional<Duration> sleepsOf(JsonNode container) {
        List<String> words = new ArrayList<>();
        container.path("command").forEach(word -> words.add(PodStatusTrees.text(word)));
        container.path("args").forEach(word -> words.add(PodStatusTrees.text(word)));
        Matcher sleep = SLEEP.matcher(String.join(" ", words));
        Duration total = null;
        while (sleep.find()) {
            BigDecimal amount = new BigDecimal(sleep.group(1));
            BigDecimal seconds = switch (sleep.group(2)) {
                case "m" -> amount.multiply(BigDecimal.valueOf(60));
                case "h" -> amount.multiply(BigDecimal.valueOf(3600));
                case "d" -> amount.multiply(BigDecimal.valueOf(86400));
                default -> amount;
            };
            total = (total == null ? Duration.ZERO : total).plus(ofSeconds(seconds));
        }
        return Optional.ofNullable(total);
    }

    private static Duration ofSeconds(BigDecimal seconds) {
        return Duration.ofNanos(
                seconds.multiply(BigDecimal.valueOf(1_000_000_000L)).longValue());
    }
}
