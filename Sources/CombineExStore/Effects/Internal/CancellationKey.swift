/// A cancellation id or token, told apart by type as well as by value: `1` and `1 as Int8`,
/// or two enums' cases with equal raw values, are different keys. An `AnyHashable` id stands
/// for the value it wraps, so `AnyHashable(x)` and `x` are the same key.
struct CancellationKey: Hashable, @unchecked Sendable {
  // @unchecked Sendable: the key is immutable; the wrapped id is a value the caller handed over
  // to identify work, compared and hashed but never mutated.
  let type: ObjectIdentifier
  let value: AnyHashable

  init<ID: Hashable>(_ id: ID) {
    // `AnyHashable(id)` unwraps an `AnyHashable` id instead of wrapping it twice.
    value = AnyHashable(id)
    type =
      ID.self == AnyHashable.self
      ? ObjectIdentifier(Swift.type(of: value.base)) : ObjectIdentifier(ID.self)
  }
}
