package io.lahar.core.api;

/** A document could not be read as a manifest: unreadable text, a wrong field type, or an unknown kind. */
public class ManifestException extends RuntimeException {

    private final boolean unknownKind;

    public ManifestException(String message) {
        this(message, false);
    }

    public ManifestException(String message, boolean unknownKind) {
        super(message);
        this.unknownKind = unknownKind;
    }

    /** True when the document was readable but its apiVersion/kind is not one Lahar handles. */
    public boolean unknownKind() {
        return unknownKind;
    }
}
