package io.lahar.core.cron;

import io.lahar.core.api.GoDuration;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * robfig/cron's {@code ParseStandard}, which Volcano's CronJob webhook and controller use: five
 * fields (minute, hour, day of month, month, day of week) with {@code *}, {@code ?}, numbers,
 * names ({@code jan}, {@code mon}), ranges {@code a-b}, steps {@code /n} and lists {@code a,b};
 * the descriptors {@code @yearly}, {@code @annually}, {@code @monthly}, {@code @weekly},
 * {@code @daily}, {@code @midnight}, {@code @hourly} and {@code @every <Go duration>}; and an
 * optional {@code TZ=<zone> } or {@code CRON_TZ=<zone> } prefix. What it accepts and refuses, and
 * its messages, are robfig/cron v3's.
 */
public final class CronParser {

    private CronParser() {}

    /**
     * The schedule of {@code spec}; {@code local} is the zone of a spec without a TZ prefix (Go's
     * {@code time.Local}, which Volcano replaces with the CronJob's {@code timeZone}).
     *
     * @throws ScheduleException with robfig/cron's reason when the spec does not parse
     */
    public static Schedule parseStandard(String spec, ZoneId local) {
        if (spec == null || spec.isEmpty()) {
            throw new ScheduleException("empty spec string");
        }
        ZoneId zone = local;
        if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
            int space = spec.indexOf(' ');
            int eq = spec.indexOf('=');
            if (space < 0) {
                throw new ScheduleException("no schedule after the time zone: " + spec);
            }
            String name = spec.substring(eq + 1, space);
            zone = Zones.load(name)
                    .orElseThrow(() ->
                            new ScheduleException("provided bad location " + name + ": unknown time zone " + name));
            spec = spec.substring(space).strip();
        }
        if (spec.startsWith("@")) {
            return descriptor(spec, zone);
        }
        List<String> fields = fields(spec);
        if (fields.size() != 5) {
            throw new ScheduleException(
                    "expected exactly 5 fields, found " + fields.size() + ": " + "[" + String.join(" ", fields) + "]");
        }
        return new SpecSchedule(
                1L << SpecSchedule.SECONDS.min(),
                getField(fields.get(0), SpecSchedule.MINUTES),
                getField(fields.get(1), SpecSchedule.HOURS),
                getField(fields.get(2), SpecSchedule.DOM),
                getField(fields.get(3), SpecSchedule.MONTHS),
                getField(fields.get(4), SpecSchedule.DOW),
                zone);
    }

    /** Go's {@code strings.Fields}: split on Unicode white space, empty parts dropped. */
    private static List<String> fields(String s) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < s.length(); i++) {
            boolean space = isSpace(s.charAt(i));
            if (space && start >= 0) {
                out.add(s.substring(start, i));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
        }
        if (start >= 0) {
            out.add(s.substring(start));
        }
        return out;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r') || c == '\u0085' || c == '\u00A0' || Character.isSpaceChar(c);
    }

    /** A comma-separated list of ranges; empty items are skipped, as Go's FieldsFunc does. */
    static long getField(String field, SpecSchedule.Bounds r) {
        long bits = 0;
        for (String expr : field.split(",")) {
            if (!expr.isEmpty()) {
                bits |= getRange(expr, r);
            }
        }
        return bits;
    }

    /** {@code number | number "-" number [ "/" number ]}, or {@code *} / {@code ?} with an optional step. */
    static long getRange(String expr, SpecSchedule.Bounds r) {
        String[] rangeAndStep = expr.split("/", -1);
        String[] lowAndHigh = rangeAndStep[0].split("-", -1);
        boolean singleDigit = lowAndHigh.length == 1;
        long start;
        long end;
        long extra = 0;
        if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
            start = r.min();
            end = r.max();
            extra = SpecSchedule.STAR_BIT;
        } else {
            start = parseIntOrName(lowAndHigh[0], r);
            switch (lowAndHigh.length) {
                case 1 -> end = start;
                case 2 -> end = parseIntOrName(lowAndHigh[1], r);
                default -> throw new ScheduleException("too many hyphens: " + expr);
            }
        }
        long step;
        switch (rangeAndStep.length) {
            case 1 -> step = 1;
            case 2 -> {
                step = mustParseInt(rangeAndStep[1]);
                // "N/step" means "N-max/step".
                if (singleDigit) {
                    end = r.max();
                }
                if (step > 1) {
                    extra = 0;
                }
            }
            default -> throw new ScheduleException("too many slashes: " + expr);
        }
        if (start < r.min()) {
            throw new ScheduleException("beginning of range (" + start + ") below minimum (" + r.min() + "): " + expr);
        }
        if (end > r.max()) {
            throw new ScheduleException("end of range (" + end + ") above maximum (" + r.max() + "): " + expr);
        }
        if (start > end) {
            throw new ScheduleException(
                    "beginning of range (" + start + ") beyond end of range (" + end + "): " + expr);
        }
        if (step == 0) {
            throw new ScheduleException("step of range should be a positive number: " + expr);
        }
        return getBits((int) start, (int) end, step) | extra;
    }

    private static long parseIntOrName(String expr, SpecSchedule.Bounds r) {
        if (r.names() != null) {
            Integer named = r.names().get(expr.toLowerCase(java.util.Locale.ROOT));
            if (named != null) {
                return named;
            }
        }
        return mustParseInt(expr);
    }

    /** Go's {@code strconv.Atoi} (an optional sign, ASCII digits, 64-bit), refusing negative numbers. */
    private static long mustParseInt(String expr) {
        String digits = expr.startsWith("+") || expr.startsWith("-") ? expr.substring(1) : expr;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new ScheduleException(
                    "failed to parse int from " + expr + ": strconv.Atoi: parsing \"" + expr + "\": invalid syntax");
        }
        long num;
        try {
            num = Long.parseLong(expr);
        } catch (NumberFormatException e) {
            throw new ScheduleException("failed to parse int from " + expr + ": strconv.Atoi: parsing \"" + expr
                    + "\": value out of range");
        }
        if (num < 0) {
            throw new ScheduleException("negative number (" + num + ") not allowed: " + expr);
        }
        return num;
    }

    /** The bits from {@code min} to {@code max}, every {@code step}. */
    static long getBits(int min, int max, long step) {
        long bits = 0;
        for (long i = min; i <= max; i += step) {
            bits |= 1L << i;
            if (step > max) {
                break; // one value only, and i + step must not overflow
            }
        }
        return bits;
    }

    /** Every value of the field, and the star bit. */
    static long all(SpecSchedule.Bounds r) {
        return getBits(r.min(), r.max(), 1) | SpecSchedule.STAR_BIT;
    }

    private static Schedule descriptor(String descriptor, ZoneId zone) {
        long sec = 1L << SpecSchedule.SECONDS.min();
        long min = 1L << SpecSchedule.MINUTES.min();
        long hour = 1L << SpecSchedule.HOURS.min();
        switch (descriptor) {
            case "@yearly", "@annually" -> {
                return new SpecSchedule(
                        sec,
                        min,
                        hour,
                        1L << SpecSchedule.DOM.min(),
                        1L << SpecSchedule.MONTHS.min(),
                        all(SpecSchedule.DOW),
                        zone);
            }
            case "@monthly" -> {
                return new SpecSchedule(
                        sec,
                        min,
                        hour,
                        1L << SpecSchedule.DOM.min(),
                        all(SpecSchedule.MONTHS),
                        all(SpecSchedule.DOW),
                        zone);
            }
            case "@weekly" -> {
                return new SpecSchedule(
                        sec,
                        min,
                        hour,
                        all(SpecSchedule.DOM),
                        all(SpecSchedule.MONTHS),
                        1L << SpecSchedule.DOW.min(),
                        zone);
            }
            case "@daily", "@midnight" -> {
                return new SpecSchedule(
                        sec, min, hour, all(SpecSchedule.DOM), all(SpecSchedule.MONTHS), all(SpecSchedule.DOW), zone);
            }
            case "@hourly" -> {
                return new SpecSchedule(
                        sec,
                        min,
                        all(SpecSchedule.HOURS),
                        all(SpecSchedule.DOM),
                        all(SpecSchedule.MONTHS),
                        all(SpecSchedule.DOW),
                        zone);
            }
            default -> {}
        }
        String every = "@every ";
        if (descriptor.startsWith(every)) {
            String text = descriptor.substring(every.length());
            // Go's ParseDuration takes the text as it is: no surrounding blanks.
            Optional<Duration> d = text.strip().equals(text) ? GoDuration.parse(text) : Optional.empty();
            if (d.isEmpty()) {
                throw new ScheduleException(
                        "failed to parse duration " + descriptor + ": time: invalid duration \"" + text + "\"");
            }
            return ConstantDelaySchedule.every(d.get());
        }
        throw new ScheduleException("unrecognized descriptor: " + descriptor);
    }
}
