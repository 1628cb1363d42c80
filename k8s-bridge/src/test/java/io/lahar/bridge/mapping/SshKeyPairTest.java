package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SshKeyPairTest {

    @Test
    void publicKeyIsAnOpenSshLineOfTheModulusAndExponent() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        KeyPair pair = generator.generateKeyPair();
        SshKeyPair keys = SshKeyPair.of(pair);

        assertThat(keys.publicKey()).startsWith("ssh-rsa ").doesNotContain("\n");
        ByteBuffer blob =
                ByteBuffer.wrap(Base64.getDecoder().decode(keys.publicKey().substring("ssh-rsa ".length())));
        assertThat(new String(read(blob), StandardCharsets.US_ASCII)).isEqualTo("ssh-rsa");
        RSAPublicKey pub = (RSAPublicKey) pair.getPublic();
        assertThat(new BigInteger(read(blob))).isEqualTo(pub.getPublicExponent());
        assertThat(new BigInteger(read(blob))).isEqualTo(pub.getModulus());
        assertThat(blob.hasRemaining()).isFalse();
    }

    @Test
    void privateKeyIsPkcs1PemThatSignsForThePublicKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        KeyPair pair = generator.generateKeyPair();
        SshKeyPair keys = SshKeyPair.of(pair);

        String pem = keys.privateKeyPem();
        assertThat(pem).startsWith("-----BEGIN RSA PRIVATE KEY-----\n").endsWith("-----END RSA PRIVATE KEY-----\n");
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replace("\n", "");
        assertThat(pem.lines().skip(1).filter(l -> !l.startsWith("-----"))).allMatch(l -> l.length() <= 64);
        List<BigInteger> ints = derIntegers(Base64.getDecoder().decode(body));
        assertThat(ints).hasSize(9);
        assertThat(ints.get(0)).isZero();
        var key = KeyFactory.getInstance("RSA")
                .generatePrivate(new RSAPrivateCrtKeySpec(
                        ints.get(1),
                        ints.get(2),
                        ints.get(3),
                        ints.get(4),
                        ints.get(5),
                        ints.get(6),
                        ints.get(7),
                        ints.get(8)));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        signer.update("hello".getBytes(StandardCharsets.UTF_8));
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(pair.getPublic());
        verifier.update("hello".getBytes(StandardCharsets.UTF_8));
        assertThat(verifier.verify(signature)).isTrue();
    }

    @Test
    void generateMakesDistinctPairsOfTheAskedSize() {
        SshKeyPair a = SshKeyPair.generate(2048);
        SshKeyPair b = SshKeyPair.generate(2048);
        assertThat(a.publicKey()).isNotEqualTo(b.publicKey());
        // 2048-bit modulus: 256 bytes (+1 sign byte) dominate the blob.
        assertThat(Base64.getDecoder().decode(a.publicKey().substring(8)).length)
                .isBetween(270, 290);
    }

    private static byte[] read(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.getInt()];
        buffer.get(bytes);
        return bytes;
    }

    /** The INTEGERs of one DER SEQUENCE. */
    private static List<BigInteger> derIntegers(byte[] der) {
        ByteBuffer in = ByteBuffer.wrap(der);
        assertThat(in.get()).isEqualTo((byte) 0x30);
        length(in);
        List<BigInteger> out = new ArrayList<>();
        while (in.hasRemaining()) {
            assertThat(in.get()).isEqualTo((byte) 0x02);
            byte[] value = new byte[length(in)];
            in.get(value);
            out.add(new BigInteger(value));
        }
        return out;
    }

    private static int length(ByteBuffer in) {
        int first = in.get() & 0xff;
        if (first < 0x80) {
            return first;
        }
        int n = 0;
        for (int i = 0; i < (first & 0x7f); i++) {
            n = (n << 8) | (in.get() & 0xff);
        }
        return n;
    }
}
