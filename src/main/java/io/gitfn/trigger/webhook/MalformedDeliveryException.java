package io.gitfn.trigger.webhook;

/** A delivery that cannot be read: its message names the header or payload field at fault (answered with 400). */
final class MalformedDeliveryException extends Exception {

  MalformedDeliveryException(String message) {
    super(message);
  }
}
