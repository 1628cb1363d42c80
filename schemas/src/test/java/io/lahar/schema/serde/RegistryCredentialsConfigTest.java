package io.lahar.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.serde.RegistrySerdes.Credentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service's registry credentials from its configuration: a file as the CLI's, or the two values. */
class RegistryCredentialsConfigTest {

    @TempDir
    Path dir;

    private static Credentials configured(Map<String, String> config) {
        return Credentials.configured(key -> Optional.ofNullable(config.get(key)));
    }

    @Test
    void noneConfiguredIsAnOpenRegistry() {
        assertThat(configured(Map.of())).isNull();
    }

    @Test
    void theFileTheCliReadsToo() throws Exception {
        Path file = Files.writeString(dir.resolve("registry-credentials"), "username=lahar\npassword=s3cret\n");

        assertThat(configured(Map.of(Credentials.FILE_KEY, file.toString())))
                .isEqualTo(new Credentials("lahar", "s3cret"));
    }

    @Test
    void orTheTwoValues() {
        assertThat(configured(Map.of(Credentials.USERNAME_KEY, "lahar", Credentials.PASSWORD_KEY, "s3cret")))
                .isEqualTo(new Credentials("lahar", "s3cret"));
    }

    @Test
    void halfOrBothIsRefused() {
        assertThatThrownBy(() -> configured(Map.of(Credentials.USERNAME_KEY, "lahar")))
                .hasMessageContaining(Credentials.PASSWORD_KEY);
        assertThatThrownBy(() -> configured(Map.of(Credentials.FILE_KEY, "/x", Credentials.PASSWORD_KEY, "p")))
                .hasMessageContaining("both set");
    }
}
