/// A cancellation id or token, told apart by type as well as by value: `1` and `1 as Int8`,
/// or two enums' cases with equal raw values, are different keys. An `AnyHashable` id stands
/// for the value it wraps, so `AnyHashable(x)` and `x` are the same key.
///
/// The usual ids, an `ObjectIdentifier` (of a type declared as the id) or an `Int`, are kept as
/// the machine word they are, and hashed and compared as one: wrapping them in `AnyHashable`
/// cost more than a thousand instructions per key made, and each dictionary look-up hashed and
/// compared through the wrapper (a tenth of `j7`). Any other id is wrapped.
@usableFromInline
struct CancellationKey: Hashable, @unchecked Sendable {
  // @unchecked Sendable: the key is immutable; the wrapped id is a value the caller handed over
  // to identify work, compared and hashed but never mutated.
  @usableFromInline
  let type: ObjectIdentifier
  /// The id, when it is an `ObjectIdentifier` or an `Int` (then `boxed` is `nil`); 0 otherwise.
  @usableFromInline
  let word: Int
  /// Any other id, wrapped.
  @usableFromInline
  let boxed: AnyHashable?

  /// Inlinable: made where the id's type is known, the choice of representation is decided when
  /// compiling.
  @inlinable
  init<ID: Hashable>(_ id: ID) {
    if ID.self == ObjectIdentifier.self || ID.self == Int.self {
      self.init(type: ID.self, word: unsafeBitCast(id, to: Int.self))
    } else if ID.self == AnyHashable.self {
      // `AnyHashable(id)` unwraps an `AnyHashable` id instead of wrapping it twice; one that
      // wraps a word id is the same key as that id.
      let wrapped = AnyHashable(id)
      let base = wrapped.base
      let baseType = Swift.type(of: base)
      if baseType == ObjectIdentifier.self || baseType == Int.self {
        self.init(
          type: baseType,
          word: baseType == Int.self
            ? base as! Int : unsafeBitCast(base as! ObjectIdentifier, to: Int.self))
      } else {
        self.init(type: baseType, boxed: wrapped)
      }
    } else {
      self.init(type: ID.self, boxed: AnyHashable(id))
    }
  }

  @usableFromInline
  init(type: Any.Type, word: Int = 0, boxed: AnyHashable? = nil) {
    self.type = ObjectIdentifier(type)
    self.word = word
    self.boxed = boxed
  }

  /// The id, wrapped (for descriptions and ``Effect/cancellationToken``).
  var value: AnyHashable {
    if let boxed { return boxed }
    if type == ObjectIdentifier(ObjectIdentifier.self) {
      return AnyHashable(unsafeBitCast(word, to: ObjectIdentifier.self))
    }
    return AnyHashable(word)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    if let boxed {
      hasher.combine(boxed)
    } else {
      hasher.combine(word)
    }
  }

  @usableFromInline
  static func == (lhs: CancellationKey, rhs: CancellationKey) -> Bool {
    lhs.type == rhs.type && lhs.word == rhs.word && lhs.boxed == rhs.boxed
  }
}
