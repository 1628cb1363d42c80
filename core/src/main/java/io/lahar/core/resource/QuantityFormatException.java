package io.lahar.core.resource;

/** A quantity that is not a Kubernetes quantity; the message names the text and why. */
public final class QuantityFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    private final String text;

    public QuantityFormatException(String text, String reason) {
        super(text == null ? reason : "invalid quantity \"" + text + "\": " + reason);
        this.text = text;
    }

    /** The text that failed to parse, or null when none was given. */
    public String text() {
        return text;
    }
}
