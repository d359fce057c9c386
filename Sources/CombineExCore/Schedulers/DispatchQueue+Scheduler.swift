import Dispatch

extension DispatchQueue: Scheduler {
  /// The scheduler time type used by the dispatch queue: a `DispatchTime`.
  ///
  /// ```swift
  /// let queue = DispatchQueue(label: "worker")
  /// let start = queue.now
  /// let later = start.advanced(by: .milliseconds(250))
  /// print(start.distance(to: later) == .milliseconds(250))  // Prints: true
  /// ```
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The dispatch time represented by this type.
    public var dispatchTime: DispatchTime

    /// Creates a dispatch queue time type instance.
    public init(_ time: DispatchTime) {
      dispatchTime = time
    }

    /// Returns the distance to another dispatch queue time.
    ///
    /// As in Combine, a distance too long for a stride, in either direction (to or from
    /// `.distantFuture`, for example), is `.nanoseconds(.max)`: dispatch's "never".
    public func distance(to other: SchedulerTimeType) -> Stride {
      let from = dispatchTime.uptimeNanoseconds
      let to = other.dispatchTime.uptimeNanoseconds
      let length = to >= from ? to - from : from - to
      guard length <= UInt64(Int.max) else { return .nanoseconds(.max) }
      return .nanoseconds(to >= from ? Int(length) : -Int(length))
    }

    /// Returns a dispatch queue scheduler time calculated by advancing this instance's time by
    /// the given interval.
    ///
    /// As in Combine, advancing by `.nanoseconds(.max)` (dispatch's "never"), advancing
    /// `.distantFuture`, or a sum beyond `UInt64`'s range gives `.distantFuture`; going back
    /// before the first uptime gives an uptime of 1 ns (0 would be dispatch's "now").
    public func advanced(by n: Stride) -> SchedulerTimeType {
      let start = dispatchTime.uptimeNanoseconds
      let nanoseconds = n.magnitude
      guard nanoseconds != .max, start != DispatchTime.distantFuture.uptimeNanoseconds else {
        return SchedulerTimeType(.distantFuture)
      }
      if nanoseconds >= 0 {
        let (sum, overflow) = start.addingReportingOverflow(UInt64(nanoseconds))
        return SchedulerTimeType(overflow ? .distantFuture : DispatchTime(uptimeNanoseconds: sum))
      }
      let distance = UInt64(nanoseconds.magnitude)
      return SchedulerTimeType(
        DispatchTime(uptimeNanoseconds: start > distance ? start - distance : 1))
    }

    /// Hashes the dispatch time.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(dispatchTime.uptimeNanoseconds)
    }

    /// Two times are equal when they denote the same instant.
    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    /// Encodes the time as its uptime nanoseconds.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(dispatchTime.uptimeNanoseconds)
    }

    /// Decodes a time encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
    }

    /// A type that represents the distance between two values: a signed number of nanoseconds.
    ///
    /// Integer and floating-point literals are seconds: `let half: Stride = 0.5`.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
      ExpressibleByFloatLiteral, Hashable, Codable, Sendable
    {
      /// If created via floating point literal, the value is converted to nanoseconds via
      /// multiplication.
      public typealias FloatLiteralType = Double

      /// Integer literals are seconds, converted to nanoseconds.
      public typealias IntegerLiteralType = Int

      /// A type that can represent the absolute value of any possible value of the conforming
      /// type.
      public typealias Magnitude = Int

      /// The value of this time interval in nanoseconds.
      public var magnitude: Int

      /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
      public var timeInterval: DispatchTimeInterval {
        .nanoseconds(magnitude)
      }

      private init(nanoseconds: Int) {
        magnitude = nanoseconds
      }

      /// Creates a dispatch queue time interval from the given dispatch time interval.
      public init(_ timeInterval: DispatchTimeInterval) {
        switch timeInterval {
        case .seconds(let value): self = .seconds(value)
        case .milliseconds(let value): self = .milliseconds(value)
        case .microseconds(let value): self = .microseconds(value)
        case .nanoseconds(let value): self = .nanoseconds(value)
        case .never: self = .nanoseconds(.max)
        #if canImport(Darwin)
          @unknown default: self = .nanoseconds(.max)
        #endif
        }
      }

      /// Creates a dispatch queue time interval from a floating-point seconds value.
      public init(floatLiteral value: Double) {
        self = .seconds(value)
      }

      /// Creates a dispatch queue time interval from an integer seconds value.
      public init(integerLiteral value: Int) {
        self = .seconds(value)
      }

      /// Creates a dispatch queue time interval from a binary integer type (seconds).
      ///
      /// If `exactly` cannot convert to an `Int`, the resulting time interval is `nil`.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        self = .seconds(value)
      }

      /// Returns a Boolean value indicating whether the first interval is shorter.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

      /// Always zero, as in Combine: multiplying two durations has no meaning (what would
      /// seconds squared be?), and Combine's `DispatchQueue` stride answers zero for every pair
      /// (OpenCombine's test suite checks it). Scale a stride by a number through its
      /// `magnitude`: `.nanoseconds(stride.magnitude * 3)`.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(nanoseconds: 0)
      }

      /// Adds two intervals (clamped to the representable range).
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
        return Stride(nanoseconds: overflow ? (rhs.magnitude > 0 ? .max : .min) : sum)
      }

      /// Subtracts one interval from another (clamped to the representable range).
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
        return Stride(nanoseconds: overflow ? (rhs.magnitude < 0 ? .max : .min) : difference)
      }

      /// Subtracts an interval from another, in place.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      /// Sets the interval to zero, as ``*(_:_:)`` does (Combine's behaviour).
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      /// Adds an interval to another, in place.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      /// Encodes the interval as Combine does: `{"_nanoseconds": magnitude}`.
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Int64(magnitude), forKey: ._nanoseconds)
      }

      /// Decodes an interval encoded by ``encode(to:)``.
      public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        magnitude = Int(clamping: try container.decode(Int64.self, forKey: ._nanoseconds))
      }

      /// The key Combine encodes the interval under.
      private enum CodingKeys: String, CodingKey {
        case _nanoseconds
      }

      /// Converts seconds, as a floating-point value, to nanoseconds (clamped).
      public static func seconds(_ s: Double) -> Stride {
        let nanoseconds = s * 1_000_000_000
        if nanoseconds >= Double(Int.max) { return Stride(nanoseconds: .max) }
        if nanoseconds <= Double(Int.min) { return Stride(nanoseconds: .min) }
        return Stride(nanoseconds: Int(nanoseconds))
      }

      /// Converts seconds to nanoseconds (clamped).
      public static func seconds(_ s: Int) -> Stride {
        Stride(nanoseconds: clampedProduct(s, 1_000_000_000))
      }

      /// Converts milliseconds to nanoseconds (clamped).
      public static func milliseconds(_ ms: Int) -> Stride {
        Stride(nanoseconds: clampedProduct(ms, 1_000_000))
      }

      /// Converts microseconds to nanoseconds (clamped).
      public static func microseconds(_ us: Int) -> Stride {
        Stride(nanoseconds: clampedProduct(us, 1_000))
      }

      /// An interval of the given number of nanoseconds.
      public static func nanoseconds(_ ns: Int) -> Stride {
        Stride(nanoseconds: ns)
      }
    }
  }

  /// Options that affect the operation of the dispatch queue scheduler.
  ///
  /// ```swift
  /// let group = DispatchGroup()
  /// DispatchQueue.global().schedule(options: .init(qos: .utility, group: group)) {
  ///   print("work")
  /// }
  /// group.wait()
  /// ```
  public struct SchedulerOptions {
    /// The dispatch queue quality of service.
    public var qos: DispatchQoS

    /// The dispatch queue work item flags.
    public var flags: DispatchWorkItemFlags

    /// The dispatch group, if any, that should be used for performing actions.
    public var group: DispatchGroup?

    /// Creates options; every parameter has the queue's default.
    public init(
      qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
      group: DispatchGroup? = nil
    ) {
      self.qos = qos
      self.flags = flags
      self.group = group
    }
  }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride {
    .nanoseconds(0)
  }

  /// This scheduler's definition of the current moment in time: `DispatchTime.now()`.
  public var now: SchedulerTimeType {
    SchedulerTimeType(.now())
  }

  /// Performs the action at the next possible opportunity: `async` on this queue, with the
  /// options' quality of service, flags and group.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let action = UncheckedAction(action)
    guard let options else {
      // The usual case: no options to apply.
      async { action.run() }
      return
    }
    async(group: options.group, qos: options.qos, flags: options.flags) { action.run() }
  }

  /// Performs the action on this queue at `date` (`asyncAfter`). If the options name a group,
  /// the group is entered until the action has run.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    let options = options ?? SchedulerOptions()
    let action = UncheckedAction(action)
    let group = options.group
    group?.enter()
    asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
      action.run()
      group?.leave()
    }
  }

  /// Performs the action on this queue at `date`, then every `interval`, with a dispatch timer
  /// source, until the returned `AnyCancellable` is cancelled or released (as in Combine, which
  /// returns an `AnyCancellable` too); an action already running finishes.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let options = options ?? SchedulerOptions()
    let action = UncheckedAction(action)
    let timer = DispatchSource.makeTimerSource(queue: self)
    timer.setEventHandler(qos: options.qos, flags: options.flags) { action.run() }
    timer.schedule(
      deadline: date.dispatchTime, repeating: interval.timeInterval,
      leeway: tolerance.timeInterval)
    timer.resume()
    // Cancelling the source also releases its handler, with what the action captured.
    return AnyCancellable { timer.cancel() }
  }
}

/// Multiplies, clamping to `Int`'s range instead of overflowing.
private func clampedProduct(_ lhs: Int, _ rhs: Int) -> Int {
  let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
  guard overflow else { return product }
  return (lhs < 0) == (rhs < 0) ? .max : .min
}
