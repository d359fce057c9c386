#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Publisher {
  /// Raises a debugger signal when a provided closure needs to stop the process in the
  /// debugger.
  ///
  /// When a closure returns `true`, the publisher raises `SIGTRAP`: a debugger attached to the
  /// process stops there; without a debugger, the signal ends the process. When the closures
  /// return `false` (or are `nil`), events pass through untouched.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<String, Never>()
  /// let cancellable = subject
  ///   .breakpoint(receiveOutput: { $0 == "DEBUGGER" })
  ///   .sink { print($0) }
  /// subject.send("hello")
  /// // Prints: hello
  /// // subject.send("DEBUGGER") would stop in the debugger (SIGTRAP).
  /// ```
  ///
  /// - Parameters:
  ///   - receiveSubscription: Returns `true` to stop when the subscription arrives.
  ///   - receiveOutput: Returns `true` to stop when a value arrives.
  ///   - receiveCompletion: Returns `true` to stop when the completion arrives.
  public func breakpoint(
    receiveSubscription: ((any Subscription) -> Bool)? = nil,
    receiveOutput: ((Output) -> Bool)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
  ) -> Publishers.Breakpoint<Self> {
    Publishers.Breakpoint(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion)
  }

  /// Raises a debugger signal upon receiving a failure.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher
  ///   .breakpointOnError()
  ///   .sink { print($0) }
  /// // Prints: 1, 2 — a failure would stop in the debugger
  /// ```
  public func breakpointOnError() -> Publishers.Breakpoint<Self> {
    breakpoint(receiveCompletion: { completion in
      if case .failure = completion { return true }
      return false
    })
  }
}

extension Publishers {
  /// A publisher that raises a debugger signal when a provided closure needs to stop the
  /// process in the debugger.
  public struct Breakpoint<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that executes when the publisher receives a subscription, and can raise a
    /// debugger signal by returning `true`.
    public let receiveSubscription: ((any Subscription) -> Bool)?

    /// A closure that executes when the publisher receives output from the upstream publisher,
    /// and can raise a debugger signal by returning `true`.
    public let receiveOutput: ((Upstream.Output) -> Bool)?

    /// A closure that executes when the publisher receives completion, and can raise a
    /// debugger signal by returning `true`.
    public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

    /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint
    /// closures.
    public init(
      upstream: Upstream,
      receiveSubscription: ((any Subscription) -> Bool)? = nil,
      receiveOutput: ((Upstream.Output) -> Bool)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    /// Attaches the subscriber, through a stateless subscriber that runs the closures.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(BreakpointSubscriber(breakpoint: self, downstream: subscriber))
    }
  }
}

/// The subscriber `Publishers.Breakpoint` attaches upstream: stateless, like
/// ``MapSubscriber``; it stops in the debugger when a closure asks to, then forwards the event.
struct BreakpointSubscriber<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  let breakpoint: Publishers.Breakpoint<Upstream>
  let downstream: Downstream

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "Breakpoint" }

  func receive(subscription: any Subscription) {
    if breakpoint.receiveSubscription?(subscription) == true { stopInDebugger() }
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    if breakpoint.receiveOutput?(input) == true { stopInDebugger() }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    if breakpoint.receiveCompletion?(completion) == true { stopInDebugger() }
    downstream.receive(completion: completion)
  }
}

/// Raises `SIGTRAP`, as Combine does: an attached debugger stops here (and the program can
/// continue), otherwise the signal's default action ends the process.
func stopInDebugger() {
  raise(SIGTRAP)
}

extension BreakpointSubscriber: NamedReflection {}
