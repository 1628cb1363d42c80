package io.lahar.bridge.mapping;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;

/**
 * The ssh plugin's key pair, in the encodings Volcano's ssh plugin writes: the public key as an
 * OpenSSH {@code ssh-rsa} line, the private key as a PKCS#1 PEM block ("RSA PRIVATE KEY").
 */
public record SshKeyPair(String publicKey, String privateKeyPem) {

    /** Generates a fresh RSA key pair; the bridge's edge may use randomness, the core never does. */
    public static SshKeyPair generate(int bits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(bits);
            return of(generator.generateKeyPair());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has RSA", e);
        }
    }

    static SshKeyPair of(KeyPair pair) {
        RSAPublicKey pub = (RSAPublicKey) pair.getPublic();
        return new SshKeyPair(openSshPublicKey(pub), pkcs1Pem((RSAPrivateCrtKey) pair.getPrivate()));
    }

    /** RFC 4253 §6.6: string "ssh-rsa", mpint e, mpint n; base64 after the type name. */
    static String openSshPublicKey(RSAPublicKey key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeString(out, "ssh-rsa".getBytes(StandardCharsets.US_ASCII));
        writeString(out, key.getPublicExponent().toByteArray());
        writeString(out, key.getModulus().toByteArray());
        return "ssh-rsa " + Base64.getEncoder().encodeToString(out.toByteArray());
    }

    /** RFC 8017 A.1.2 RSAPrivateKey, DER, in a PEM block of 64-character lines. */
    static String pkcs1Pem(RSAPrivateCrtKey key) {
        byte[] der = sequence(
                integer(BigInteger.ZERO),
                integer(key.getModulus()),
                integer(key.getPublicExponent()),
                integer(key.getPrivateExponent()),
                integer(key.getPrimeP()),
                integer(key.getPrimeQ()),
                integer(key.getPrimeExponentP()),
                integer(key.getPrimeExponentQ()),
                integer(key.getCrtCoefficient()));
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        return "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----\n";
    }

    private static void writeString(ByteArrayOutputStream out, byte[] bytes) {
        int n = bytes.length;
        out.write(n >>> 24);
        out.write(n >>> 16);
        out.write(n >>> 8);
        out.write(n);
        out.writeBytes(bytes);
    }

    private static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        Arrays.stream(parts).forEach(body::writeBytes);
        return tlv(0x30, body.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            byte[] len = BigInteger.valueOf(n).toByteArray();
            int start = len[0] == 0 ? 1 : 0;
            out.write(0x80 | (len.length - start));
            out.write(len, start, len.length - start);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }
}
