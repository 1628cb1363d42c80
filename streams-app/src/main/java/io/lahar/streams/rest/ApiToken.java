package io.lahar.streams.rest;

import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
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
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The REST API's bearer token. Without one configured ({@code lahar.api.token}, for a deployment
 * that hands it over as a secret), it is the content of {@code lahar.api.token-file}: read when the
 * file exists, else generated (256 random bits) and written there with mode 0600, so the API is
 * never open by default and the token is never on a command line. Instances of one deployment
 * pointed at the same file share the token (the first one writes it, atomically).
 */
@Singleton
@Startup
public class ApiToken {

    private static final Logger LOG = Logger.getLogger(ApiToken.class);
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private final byte[] expected;
    private final String token;

    ApiToken(
            @ConfigProperty(name = "lahar.api.token") Optional<String> configured,
            @ConfigProperty(name = "lahar.api.token-file") Optional<String> file) {
        Optional<String> given = configured.map(String::strip).filter(t -> !t.isEmpty());
        if (given.isPresent()) {
            token = given.get();
        } else {
            Path path = Path.of(
                    file.filter(f -> !f.isBlank())
                            .orElseThrow(
                                    () -> new IllegalStateException(
                                            "lahar.api.token-file is not set: the REST API needs a token (lahar.api.token) or a file to keep one")));
            token = readOrCreate(path);
        }
        expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    /** Whether an {@code Authorization} header carries the token (in constant time). */
    public boolean admits(String authorization) {
        return authorization != null && MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8), expected);
    }

    /** The header value that passes, for a request to another instance of the deployment. */
    public String header() {
        return "Bearer " + token;
    }

    /** The token in {@code file}, made first when there is none. */
    static String readOrCreate(Path file) {
        try {
            Path absolute = file.toAbsolutePath();
            if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                create(absolute);
            }
            return read(absolute);
        } catch (IOException e) {
            throw new UncheckedIOException("the API token file " + file + ": " + e.getMessage(), e);
        }
    }

    private static void create(Path file) throws IOException {
        Path dir = file.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(
                    dir,
                    PosixFilePermissions.asFileAttribute(EnumSet.of(
                            PosixFilePermission.OWNER_READ,
                            PosixFilePermission.OWNER_WRITE,
                            PosixFilePermission.OWNER_EXECUTE)));
        }
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        Path tmp = Files.createTempFile(dir, ".api-token-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            Files.writeString(
                    tmp, Base64.getUrlEncoder().withoutPadding().encodeToString(random) + "\n", StandardCharsets.UTF_8);
            // A link fails when the file exists: of instances starting together one writes, the others read it.
            Files.createLink(file, tmp);
            LOG.infof("generated the REST API token in %s (mode 0600)", file);
        } catch (FileAlreadyExistsException another) {
            LOG.debugf("%s was written by another instance", file);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The token, from a file only its owner can read or write: one others could change would be theirs to set. */
    private static String read(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("not a regular file");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
        if (!OWNER_ONLY.containsAll(mode)) {
            throw new IOException(
                    "mode " + PosixFilePermissions.toString(mode) + " lets others read or change it: chmod 600 it");
        }
        String owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
        if (!owner.equals(System.getProperty("user.name"))) {
            throw new IOException("owned by " + owner + ", not by " + System.getProperty("user.name"));
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw new IOException("it is empty");
        }
        return text;
    }
}
