package io.lahar.emulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The emulated API's one credential, the token of the kubeconfig it writes: every request but the
 * health checks must carry it ({@link ClusterDispatcher}). Kept in the data directory (mode 0600)
 * so an emulator started again on it, and the bridge still holding the kubeconfig, agree; without
 * a data directory it lives as long as the process.
 */
final class BearerToken {

    static final String FILE = "api-token";
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private final String token;
    private final byte[] header;

    private BearerToken(String token) {
        this.token = token;
        this.header = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    /** The token of {@code dataDir} (made there the first time), or a new one for a cluster in memory. */
    static BearerToken of(Optional<Path> dataDir) {
        if (dataDir.isEmpty()) {
            return new BearerToken(random());
        }
        Path file = dataDir.get().resolve(FILE);
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.writeString(
                        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY)),
                        random() + "\n",
                        StandardCharsets.UTF_8);
            }
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || !OWNER_ONLY.containsAll(mode)) {
                throw new IOException("not a regular file of mode 0600 (" + PosixFilePermissions.toString(mode) + ")");
            }
            String stored = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (stored.isEmpty()) {
                throw new IOException("empty");
            }
            return new BearerToken(stored);
        } catch (IOException e) {
            throw new UncheckedIOException("the emulated API's token " + file + ": " + e.getMessage(), e);
        }
    }

    private static String random() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    String value() {
        return token;
    }

    /** Whether an {@code Authorization} header carries this token (in constant time). */
    boolean admits(String authorization) {
        return authorization != null && MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8), header);
    }

    @Override
    public String toString() {
        return "BearerToken[***]";
    }
}
