package io.lahar.core.sim;

/** A script line that cannot be run, with its line number. */
public final class ScriptException extends RuntimeException {

    private final int line;

    public ScriptException(int line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    public int line() {
        return line;
    }
}
