// What Apple's Combine shows of its two subscribers in a debugger, a playground or a `dump`:
// the description as the playground value, and a mirror (no children for a Sink; the object,
// the key path and the status for an Assign).

extension Subscribers.Sink: CustomReflectable, CustomPlaygroundDisplayConvertible {
  /// A mirror without children: a sink's closures are not shown.
  public var customMirror: Mirror { Mirror(self, children: [:]) }

  /// The sink's description, `"Sink"`.
  public var playgroundDescription: Any { description }
}

extension Subscribers.Assign: CustomReflectable, CustomPlaygroundDisplayConvertible {
  /// A mirror with the `object` (`nil` once the subscriber ended), the `keyPath`, and the
  /// `status`: the upstream's subscription while subscribed, or the state it is in otherwise.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        ("object", object as Any),
        ("keyPath", keyPath),
        ("status", status),
      ])
  }

  /// The subscriber's description, for example `"Assign Label."`.
  public var playgroundDescription: Any { description }
}
