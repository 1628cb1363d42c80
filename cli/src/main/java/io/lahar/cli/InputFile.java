package io.lahar.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A file a verb reads its manifests from, where {@code -} is stdin (kubectl's {@code -f -}); one reading for every such verb. */
public final class InputFile {

    private InputFile() {}

    /** The text of {@code path}, or of stdin for {@code -}, as UTF-8. */
    public static String read(Path path) throws IOException {
        return path.toString().equals("-")
                ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                : Files.readString(path, StandardCharsets.UTF_8);
    }
}
