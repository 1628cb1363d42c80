package io.lahar.core.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantityTest {

    @ParameterizedTest
    @CsvSource({
        "500m, 500",
        "2, 2000",
        "0.5, 500",
        "1.5, 1500",
        ".25, 250",
        "0.1m, 1",
        "1k, 1000000",
        "100n, 1",
        "3e2, 300000",
        "1E-3, 1"
    })
    void milliValueIsExactAndRoundsUp(String text, long millis) {
        assertThat(Quantity.parse(text).milliValue()).isEqualTo(millis);
    }

    @ParameterizedTest
    @CsvSource({
        "1Gi, 1073741824", "100Ki, 102400", "1.5G, 1500000000", "1.5Gi, 1610612736", "128974848, 128974848",
        "129e6, 129000000", "123Mi, 128974848", "1Ti, 1099511627776", "500m, 1", "1Ei, 1152921504606846976"
    })
    void valueIsInBaseUnits(String text, long bytes) {
        assertThat(Quantity.parse(text).value()).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1Gb", "1.2.3", "--1", "1 Gi", "Gi", "1e", "1ki"})
    void rejectsWhatKubernetesRejects(String text) {
        assertThatThrownBy(() -> Quantity.parse(text))
                .isInstanceOf(QuantityFormatException.class)
                .hasMessageContaining("invalid quantity");
    }

    @org.junit.jupiter.api.Test
    void tooLargeIsAnErrorNotAnOverflow() {
        assertThatThrownBy(() -> Quantity.parse("100Ei").value()).hasMessageContaining("too large");
        assertThatThrownBy(() -> Quantity.parse(null)).isInstanceOf(QuantityFormatException.class);
    }

    @org.junit.jupiter.api.Test
    void equalityIsByAmount() {
        assertThat(Quantity.parse("1000m")).isEqualTo(Quantity.parse("1"));
        assertThat(Quantity.parse("1Ki")).isEqualTo(Quantity.of(1024));
        assertThat(Quantity.parse("1k").compareTo(Quantity.parse("1Ki"))).isNegative();
        assertThat(Quantity.parse("-1").isNegative()).isTrue();
    }
}
