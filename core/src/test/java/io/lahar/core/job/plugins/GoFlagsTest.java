package io.lahar.core.job.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's flag package as Volcano's distributed-framework plugins call it (ContinueOnError). */
class GoFlagsTest {

    private static GoFlags flags(String... args) {
        return new GoFlags()
                .string("name", "dflt")
                .integer("port", 7)
                .bool("on", false)
                .parse(Arrays.asList(args));
    }

    @Test
    void theFormsGoReads() {
        assertThat(flags().string("name")).isEqualTo("dflt");
        assertThat(flags("-name=a").string("name")).isEqualTo("a");
        assertThat(flags("--name", "b").string("name")).isEqualTo("b");
        assertThat(flags("--name=").string("name")).isEmpty();
        assertThat(flags("--name=a=b").string("name")).isEqualTo("a=b");
        assertThat(flags("--name=a", "--name=c").string("name")).isEqualTo("c");
        assertThat(flags("--on").bool("on")).isTrue();
        assertThat(flags("--on=false", "--port", "9").bool("on")).isFalse();
        assertThat(flags("--on=T").bool("on")).isTrue();
        assertThat(flags("--port=1", "--").error()).isEmpty();
        assertThat(new GoFlags().integer("port", 7).parse(null).integer("port")).isEqualTo(7);
    }

    /** strconv.ParseInt(s, 0, 64): Go's literal syntax. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "5000, 5000",
        "+12, 12",
        "-3, -3",
        "0x1F, 31",
        "0X1f, 31",
        "0o17, 15",
        "017, 15",
        "0b101, 5",
        "1_000, 1000",
        "0x_ff, 255",
        "0, 0"
    })
    void integers(String text, int value) {
        GoFlags f = flags("--port=" + text);
        assertThat(f.error()).isEmpty();
        assertThat(f.integer("port")).isEqualTo(value);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "'', parse error",
        "abc, parse error",
        "08, parse error",
        "1__0, parse error",
        "_1, parse error",
        "1_, parse error",
        "' 5', parse error",
        "1.5, parse error",
        "9999999999999999999, value out of range",
        "4294967296, value out of range"
    })
    void badIntegers(String text, String why) {
        assertThat(flags("--port=" + text).error()).contains("invalid value \"" + text + "\" for flag -port: " + why);
    }

    @Test
    void whereGoStopsTheErrorIsKeptAndLaterFlagsKeepTheirDefaults() {
        GoFlags f = flags("--nmae=x", "--name=y");
        assertThat(f.error()).contains("flag provided but not defined: -nmae (known: name, port, on)");
        assertThat(f.string("name")).isEqualTo("dflt");
        assertThat(flags("--port").error()).contains("flag needs an argument: -port");
        assertThat(flags("--on=maybe").error()).contains("invalid boolean value \"maybe\" for -on: parse error");
        assertThat(flags("-").error()).contains("argument \"-\" is not a flag, and no flag after it would be read");
        assertThat(flags("x", "--port=1").error())
                .contains("argument \"x\" is not a flag, and no flag after it would be read");
        assertThat(flags("--", "--port=1").error())
                .contains("arguments after \"--\" are not flags and would not be read");
        assertThat(flags("--=x").error()).contains("bad flag syntax: --=x");
        assertThat(flags("-h").error()).contains("flag provided but not defined: -h (known: name, port, on)");
        assertThat(flags("--on", "true").error())
                .contains("argument \"true\" is not a flag, and no flag after it would be read");
    }

    @Test
    void portsOutOfRange() {
        assertThat(flags("--port=65535").problems("port")).isEmpty();
        assertThat(flags("--port=65536").problems("port")).containsExactly("--port: 65536 is not a port (1 to 65535)");
        assertThat(flags("--port=0", "--x").problems("port"))
                .containsExactly(
                        "flag provided but not defined: -x (known: name, port, on)",
                        "--port: 0 is not a port (1 to 65535)");
    }
}
