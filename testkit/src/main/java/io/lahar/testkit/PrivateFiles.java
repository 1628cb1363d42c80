package io.lahar.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Properties;

/** Secrets the testkit makes and the files that hold them: owner-only from the first byte. */
final class PrivateFiles {

    private PrivateFiles() {}

    /** A random secret, 36 hex digits. */
    static String secret() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Writes {@code p} to {@code file}, created with mode 0600 before any secret is in it. */
    static void write(Path file, Properties p, String comment) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, comment);
        }
    }
}
