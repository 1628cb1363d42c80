package io.lahar.core.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Kubernetes name rules (apimachinery's validation package), with its messages. */
public final class Names {

    public static final int DNS1123_LABEL_MAX = 63;
    public static final int DNS1123_SUBDOMAIN_MAX = 253;

    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern QUALIFIED = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern IANA_SVC = Pattern.compile("[-a-z0-9]+");

    private Names() {}

    /** Empty when {@code value} is an RFC 1123 label (a pod, task or container name). */
    public static List<String> dns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX) {
            errs.add("must be no more than " + DNS1123_LABEL_MAX + " characters");
        }
        if (!LABEL.matcher(value).matches()) {
            errs.add("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
                    + " and must start and end with an alphanumeric character");
        }
        return errs;
    }

    /** Empty when {@code value} is an RFC 1123 subdomain (an object name). */
    public static List<String> dns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX) {
            errs.add("must be no more than " + DNS1123_SUBDOMAIN_MAX + " characters");
        }
        if (!SUBDOMAIN.matcher(value).matches()) {
            errs.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.',"
                    + " and must start and end with an alphanumeric character");
        }
        return errs;
    }

    /** Empty when {@code value} is a qualified name without prefix (at most 63 characters). */
    public static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX) {
            errs.add("must be no more than " + DNS1123_LABEL_MAX + " characters");
        }
        if (!QUALIFIED.matcher(value).matches()) {
            errs.add("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
                    + " alphanumeric character");
        }
        return errs;
    }

    /** Empty when {@code value} is an IANA service name (a container port name). */
    public static List<String> ianaSvcName(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 15) {
            errs.add("must be no more than 15 characters");
        }
        if (!IANA_SVC.matcher(value).matches()) {
            errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (value.startsWith("-") || value.endsWith("-")) {
            errs.add("must not begin or end with a hyphen");
        }
        if (value.contains("--")) {
            errs.add("must not contain consecutive hyphens");
        }
        if (!value.matches(".*[a-z].*")) {
            errs.add("must contain at least one letter (a-z)");
        }
        return errs;
    }

    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

    /** Empty when {@code key} is a label key: an optional DNS subdomain prefix and "/", then a qualified name. */
    public static List<String> labelKey(String key) {
        int slash = key.indexOf('/');
        List<String> errs = new ArrayList<>();
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty() || !dns1123Subdomain(prefix).isEmpty()) {
                errs.add("prefix part must be a lowercase RFC 1123 subdomain");
            }
            key = key.substring(slash + 1);
        }
        if (key.isEmpty()) {
            errs.add("name part must be non-empty");
        } else {
            qualifiedName(key).forEach(e -> errs.add("name part " + e));
        }
        return errs;
    }

    /** Empty when {@code value} is a label value (at most 63 characters, alphanumeric ends). */
    public static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX) {
            errs.add("must be no more than " + DNS1123_LABEL_MAX + " characters");
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.',"
                    + " and must start and end with an alphanumeric character");
        }
        return errs;
    }

    /** Validates a labels map (a JSON tree) at {@code path}. */
    static void labels(com.fasterxml.jackson.databind.JsonNode labels, String path, Violations v) {
        if (!labels.isObject()) {
            return;
        }
        labels.properties().forEach(e -> {
            List<String> keyErrs = labelKey(e.getKey());
            if (!keyErrs.isEmpty()) {
                v.add(path, "invalid label key \"" + e.getKey() + "\": " + join(keyErrs));
            }
            String value = e.getValue().isValueNode()
                    ? e.getValue().asText()
                    : e.getValue().toString();
            List<String> valueErrs = labelValue(value);
            if (!valueErrs.isEmpty()) {
                v.add(path + "." + e.getKey(), "invalid label value \"" + value + "\": " + join(valueErrs));
            }
        });
    }

    /**
     * Validates an annotations map (a JSON tree) at {@code path} as Kubernetes' ValidateAnnotations
     * does: each key a qualified name (checked lower-cased), and keys and values together at most
     * {@link AdmissionLimits#ANNOTATIONS_MAX_BYTES} bytes of UTF-8.
     */
    static void annotations(com.fasterxml.jackson.databind.JsonNode annotations, String path, Violations v) {
        if (!annotations.isObject()) {
            return;
        }
        long bytes = 0;
        for (var e : annotations.properties()) {
            List<String> keyErrs = labelKey(e.getKey().toLowerCase(java.util.Locale.ROOT));
            if (!keyErrs.isEmpty()) {
                v.add(path, "invalid annotation key \"" + e.getKey() + "\": " + join(keyErrs));
            }
            String value = e.getValue().isValueNode()
                    ? e.getValue().asText()
                    : e.getValue().toString();
            bytes += utf8Length(e.getKey()) + utf8Length(value);
        }
        if (bytes > AdmissionLimits.ANNOTATIONS_MAX_BYTES) {
            v.add(
                    path,
                    "must have at most " + AdmissionLimits.ANNOTATIONS_MAX_BYTES
                            + " bytes, keys and values together (was " + bytes + ")");
        }
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    static String join(List<String> errs) {
        return String.join("; ", errs);
    }
}
