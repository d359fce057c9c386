/// The bit layout of a subject conduit's atomic state word: demand and two flags in one
/// `UInt`, so that the delivery path reads everything it needs with a single load.
///
/// - bits 0...61: outstanding demand; all ones means `.unlimited`.
/// - bit 62: terminated (cancelled, or completion delivered). Never cleared.
/// - bit 63: behind (replaying subjects only): the subscriber has not yet received the latest
///   value (or, with a replay buffer, some of the kept values), and gets it on its next demand.
@usableFromInline
enum SubjectConduitState {
  @usableFromInline
  static var demandMask: UInt { (1 << 62) - 1 }

  @usableFromInline
  static var unlimited: UInt { demandMask }

  @usableFromInline
  static var terminated: UInt { 1 << 62 }

  @usableFromInline
  static var owesCurrentValue: UInt { 1 << 63 }

  /// The demand bits for a `Subscribers.Demand`, saturating at `.unlimited`.
  @inlinable
  static func bits(for demand: Subscribers.Demand) -> UInt {
    guard let count = demand.max else { return unlimited }
    return UInt(count) >= unlimited ? unlimited : UInt(count)
  }

  /// The outstanding demand recorded in `state`.
  @usableFromInline
  static func demand(in state: UInt) -> Subscribers.Demand {
    let bits = state & demandMask
    return bits == unlimited ? .unlimited : .max(Int(bits))
  }

  /// `state` with `added` more demand, saturating at `.unlimited`.
  @inlinable
  static func adding(_ added: UInt, to state: UInt) -> UInt {
    let current = state & demandMask
    if current == unlimited { return state }
    let sum = current + added  // both operands < 2^62: no overflow
    return (state & ~demandMask) | (sum >= unlimited ? unlimited : sum)
  }
}
