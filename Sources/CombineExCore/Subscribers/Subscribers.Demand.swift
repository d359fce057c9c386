extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the
  /// subscription.
  ///
  /// Demand is either `.unlimited` or `.max(n)` with `n >= 0`. Arithmetic saturates: adding to
  /// or subtracting from `.unlimited` stays `.unlimited` (even `.unlimited - .unlimited`, as in
  /// Combine), sums and products that overflow become `.unlimited`, and subtraction never goes
  /// below `.none`. Adding a negative `Int` subtracts, with the same floor.
  ///
  /// ```swift
  /// var demand = Subscribers.Demand.max(2)
  /// demand += 3
  /// print(demand)  // Prints: max(5)
  /// demand -= .max(9)
  /// print(demand)  // Prints: max(0)
  /// print(demand + .unlimited)  // Prints: unlimited
  /// print(Subscribers.Demand.unlimited - .unlimited)  // Prints: unlimited
  /// ```
  @frozen
  public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable,
    CustomStringConvertible
  {
    /// The number of values, or ``Subscribers/Demand/unlimitedRawValue`` for `.unlimited`.
    @usableFromInline
    let rawValue: UInt

    /// The raw value of `.unlimited`: one more than the largest finite demand.
    @usableFromInline
    static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

    @inlinable
    init(rawValue: UInt) {
      self.rawValue = Swift.min(rawValue, Self.unlimitedRawValue)
    }

    /// A request for as many values as the publisher can produce.
    @inlinable
    public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

    /// A request for no elements from the publisher. Equivalent to `.max(0)`.
    @inlinable
    public static var none: Demand { Demand(rawValue: 0) }

    /// Creates a demand for the given maximum number of elements.
    ///
    /// - Parameter value: The maximum number of elements. A negative value stops the program
    ///   with a message naming this call.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      if value < 0 {
        apiViolation(
          "Subscribers.Demand.max(\(value)): demand cannot be negative. Use .none to request "
            + "nothing.")
      }
      return Demand(rawValue: UInt(value))
    }

    /// The number of requested values, or `nil` if the demand is `.unlimited`.
    @inlinable
    public var max: Int? {
      rawValue == Self.unlimitedRawValue ? nil : Int(rawValue)
    }

    /// `"unlimited"` or `"max(n)"`.
    public var description: String {
      rawValue == Self.unlimitedRawValue ? "unlimited" : "max(\(rawValue))"
    }

    // MARK: Arithmetic

    /// Adds two demands. Anything plus `.unlimited` is `.unlimited`; overflow saturates.
    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
      return overflow ? .unlimited : Demand(rawValue: sum)
    }

    /// Adds a demand to this one.
    @inlinable
    public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

    /// Adds a number of values to a demand. `.unlimited` stays `.unlimited`; a negative number
    /// subtracts, and the result stops at `.none` rather than going below it.
    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0 ? lhs - Demand(rawValue: rhs.magnitude) : lhs + Demand(rawValue: UInt(rhs))
    }

    /// Adds a number of values to this demand. A negative number subtracts.
    @inlinable
    public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    /// Multiplies a demand by a number of values. `.unlimited` stays `.unlimited`.
    ///
    /// A negative factor stops the program with a message naming this call.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      if rhs < 0 {
        apiViolation(
          "Subscribers.Demand * \(rhs): demand cannot be multiplied by a negative number.")
      }
      if lhs == .unlimited { return .unlimited }
      let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
      return overflow ? .unlimited : Demand(rawValue: product)
    }

    /// Multiplies this demand by a number of values.
    @inlinable
    public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

    /// Subtracts one demand from another.
    ///
    /// As in Combine, `.unlimited` minus anything (even `.unlimited`) stays `.unlimited`; a
    /// finite demand minus `.unlimited` is `.none`; results never go below `.none`.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      // `.unlimited` is checked first: an unlimited subscriber stays unlimited whatever it
      // has received.
      if lhs == .unlimited { return .unlimited }
      if rhs == .unlimited { return .none }
      return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
    }

    /// Subtracts a demand from this one.
    @inlinable
    public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

    /// Subtracts a number of values from a demand. `.unlimited` stays `.unlimited`; the result
    /// stops at `.none`; a negative number adds, and a sum beyond `Int.max` gives `.none`, as
    /// in Combine (whose arithmetic overflows there).
    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      guard rhs < 0 else { return lhs - Demand(rawValue: UInt(rhs)) }
      if lhs == .unlimited { return .unlimited }
      let sum = lhs.rawValue + rhs.magnitude  // At most 2^63 - 1 + 2^63: no overflow.
      return sum > UInt(Int.max) ? .none : Demand(rawValue: sum)
    }

    /// Subtracts a number of values from this demand. A negative number adds.
    @inlinable
    public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

    // MARK: Comparison with Int (.unlimited is greater than every Int)

    /// Whether the demand is greater than a number of values.
    @inlinable
    public static func > (lhs: Demand, rhs: Int) -> Bool {
      rhs < 0 || lhs.rawValue > UInt(rhs)
    }

    /// Whether the demand is greater than or equal to a number of values.
    @inlinable
    public static func >= (lhs: Demand, rhs: Int) -> Bool {
      rhs < 0 || lhs.rawValue >= UInt(rhs)
    }

    /// Whether a number of values is greater than the demand.
    @inlinable
    public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }

    /// Whether a number of values is greater than or equal to the demand.
    @inlinable
    public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

    /// Whether the demand is less than a number of values.
    @inlinable
    public static func < (lhs: Demand, rhs: Int) -> Bool { !(lhs >= rhs) }

    /// Whether a number of values is less than the demand.
    @inlinable
    public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }

    /// Whether the demand is less than or equal to a number of values.
    @inlinable
    public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }

    /// Whether a number of values is less than or equal to the demand.
    @inlinable
    public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

    /// Whether the demand equals a number of values (`.unlimited` equals no number).
    @inlinable
    public static func == (lhs: Demand, rhs: Int) -> Bool {
      rhs >= 0 && lhs.rawValue == UInt(rhs)
    }

    /// Whether the demand differs from a number of values.
    @inlinable
    public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

    /// Whether a number of values equals the demand.
    @inlinable
    public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }

    /// Whether a number of values differs from the demand.
    @inlinable
    public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

    // MARK: Comparison between demands (.unlimited is the largest)

    /// Whether one demand is less than another.
    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether one demand is less than or equal to another.
    @inlinable
    public static func <= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue <= rhs.rawValue }

    /// Whether one demand is greater than or equal to another.
    @inlinable
    public static func >= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue >= rhs.rawValue }

    /// Whether one demand is greater than another.
    @inlinable
    public static func > (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue > rhs.rawValue }

    /// Whether two demands are equal.
    @inlinable
    public static func == (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue == rhs.rawValue }

    // MARK: Codable

    /// Decodes a demand stored as its raw number (`.unlimited` is one more than `Int.max`).
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      self.init(rawValue: try container.decode(UInt.self))
    }

    /// Encodes the demand as its raw number.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }

  }
}
