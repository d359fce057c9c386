/// The bits of a ``Subscribers/Sink``'s atomic state word.
@usableFromInline
enum SinkState {
  /// A subscription was accepted.
  @inlinable
  static var subscribed: UInt32 { 1 }

  /// Completed or cancelled: nothing more is delivered.
  @inlinable
  static var terminated: UInt32 { 2 }

  /// The upstream calls `_upstreamDetached()` after a cancel:
  /// deliveries are not counted.
  @inlinable
  static var reportsDetach: UInt32 { 4 }

  /// The closures were released (claimed by exactly one thread).
  @inlinable
  static var released: UInt32 { 8 }

  /// One delivery in progress (without an upstream that reports detach): the count lives in
  /// the bits from here up.
  @inlinable
  static var delivery: UInt32 { 16 }

  /// The bits of the count of deliveries in progress.
  @inlinable
  static var deliveryMask: UInt32 { ~15 }
}
