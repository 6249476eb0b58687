package io.gitfn.trigger.webhook;

/** Reads one forge's deliveries: its headers and its payload shape. Pure: no I/O, no secrets. */
interface ForgeParser {

  Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException;
}
