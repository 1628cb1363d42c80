package io.lahar.core.scheduling.api;

import io.lahar.core.job.plugins.PodLabels;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Volcano's DisruptionBudget of a job: how many of its pods must stay available
 * ({@code volcano.sh/jdb-min-available}) or may be unavailable ({@code volcano.sh/jdb-max-unavailable})
 * when the tdm plugin evicts them, each a positive count or a percentage of the job's pods; "" when
 * not given.
 */
public record DisruptionBudget(String minAvailable, String maxUnavailable) {

    public static final DisruptionBudget NONE = new DisruptionBudget("", "");

    private static final Pattern INT = Pattern.compile("[+-]?[0-9]+");

    public DisruptionBudget {
        minAvailable = minAvailable == null ? "" : minAvailable;
        maxUnavailable = maxUnavailable == null ? "" : maxUnavailable;
    }

    /** Volcano's extractBudget: the pod group's min-available annotation, else its max-unavailable one. */
    public static DisruptionBudget of(Map<String, String> annotations) {
        if (annotations == null) return NONE;
        if (annotations.containsKey(PodLabels.JDB_MIN_AVAILABLE)) {
            return new DisruptionBudget(annotations.get(PodLabels.JDB_MIN_AVAILABLE), "");
        }
        if (annotations.containsKey(PodLabels.JDB_MAX_UNAVAILABLE)) {
            return new DisruptionBudget("", annotations.get(PodLabels.JDB_MAX_UNAVAILABLE));
        }
        return NONE;
    }

    /**
     * Null when a budget value is one Volcano's pod admission takes and its scheduler reads (a
     * positive integer, or a percentage from 1% to 99%), else why not.
     */
    public static String check(String value) {
        String number = value.endsWith("%") ? value.substring(0, value.length() - 1) : value;
        if (!INT.matcher(number).matches() || number.length() > 10 || Long.parseLong(number) > Integer.MAX_VALUE) {
            return "expected a positive integer or a percentage from 1% to 99%, got \"" + value + "\"";
        }
        long v = Long.parseLong(number);
        if (number.equals(value) && v <= 0) {
            return "must be a positive integer, got \"" + value + "\"";
        }
        if (!number.equals(value) && (v <= 0 || v >= 100)) {
            return "must be a percentage from 1% to 99%, got \"" + value + "\"";
        }
        return null;
    }

    /**
     * Volcano's parseIntStr in the tdm plugin: an integer as it is, a percentage of {@code tasks}
     * rounded up; 0 for anything else.
     */
    public static int valueOf(String value, int tasks) {
        if (INT.matcher(value).matches() && value.length() <= 10) {
            return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, Long.parseLong(value)));
        }
        String number = value.endsWith("%") ? value.substring(0, value.length() - 1) : null;
        if (number == null || !INT.matcher(number).matches() || number.length() > 10) return 0;
        return (int) Math.ceil(Long.parseLong(number) * (double) tasks / 100);
    }
}
