import CombineExCore
import Foundation

/// A cold publisher that runs a wrapped publisher, made anew for each subscription: `Deferred`
/// and ``AnyDeferredPublisher``. It carries the original CombineEx's operators that return
/// `Deferred<…>` (see the extension below); it is not meant to be adopted elsewhere.
public protocol _DeferredPublisherWrapping: ColdPublisher {
  /// The publisher each subscription runs.
  associatedtype WrappedPublisher: Publisher
  where WrappedPublisher.Output == Output, WrappedPublisher.Failure == Failure
  /// Makes the publisher of one new run.
  var createPublisher: () -> WrappedPublisher { get }
}

extension Deferred: _DeferredPublisherWrapping {}
extension AnyDeferredPublisher: _DeferredPublisherWrapping {}

// The original CombineEx's operators on a deferred publisher that return `Deferred<…>`: each
// applies Combine's operator to a new wrapped publisher, inside a new `Deferred`, so every
// subscription builds its own chain. They are disfavoured, as in the original: Combine's forms
// (cold here as well, see `ColdPublisher`) win unless the caller names the `Deferred<…>` type.
extension _DeferredPublisherWrapping {
  /// Transforms each value; the transform is applied inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func map<T>(_ transform: @escaping (WrappedPublisher.Output) -> T)
    -> Deferred<Publishers.Map<WrappedPublisher, T>>
  {
    let make = createPublisher
    return Deferred { make().map(transform) }
  }

  /// Transforms each value with a throwing closure, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func tryMap<T>(_ transform: @escaping (WrappedPublisher.Output) throws -> T)
    -> Deferred<Publishers.TryMap<WrappedPublisher, T>>
  {
    let make = createPublisher
    return Deferred { make().tryMap(transform) }
  }

  /// Transforms the failure, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func mapError<E: Error>(_ transform: @escaping (WrappedPublisher.Failure) -> E)
    -> Deferred<Publishers.MapError<WrappedPublisher, E>>
  {
    let make = createPublisher
    return Deferred { make().mapError(transform) }
  }

  /// Replaces `nil` values with `output`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func replaceNil<T>(with output: T)
    -> Deferred<Publishers.Map<WrappedPublisher, T>> where WrappedPublisher.Output == T?
  {
    let make = createPublisher
    return Deferred { make().replaceNil(with: output) }
  }

  /// Accumulates values, starting from `initialResult` for each subscription, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, WrappedPublisher.Output) -> T
  )
    -> Deferred<Publishers.Scan<WrappedPublisher, T>>
  {
    let make = createPublisher
    return Deferred { make().scan(initialResult, nextPartialResult) }
  }

  /// Accumulates values with a throwing closure, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, WrappedPublisher.Output) throws -> T
  )
    -> Deferred<Publishers.TryScan<WrappedPublisher, T>>
  {
    let make = createPublisher
    return Deferred { make().tryScan(initialResult, nextPartialResult) }
  }

  /// Gives a publisher that cannot fail a failure type, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func setFailureType<E: Error>(to failureType: E.Type)
    -> Deferred<Publishers.SetFailureType<WrappedPublisher, E>>
  where WrappedPublisher.Failure == Never {
    let make = createPublisher
    return Deferred { make().setFailureType(to: failureType) }
  }

  /// Subscribes to the publisher `transform` returns for each value, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func flatMap<T, P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (WrappedPublisher.Output) -> P
  )
    -> Deferred<Publishers.FlatMap<P, WrappedPublisher>>
  where T == P.Output, WrappedPublisher.Failure == P.Failure {
    let make = createPublisher
    return Deferred { make().flatMap(maxPublishers: maxPublishers, transform) }
  }

  /// Subscribes to the publisher `transform` returns for each value, taking its failure type, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (WrappedPublisher.Output) -> P
  )
    -> Deferred<Publishers.FlatMap<P, Publishers.SetFailureType<WrappedPublisher, P.Failure>>>
  where WrappedPublisher.Failure == Never {
    let make = createPublisher
    return Deferred { make().flatMap(maxPublishers: maxPublishers, transform) }
  }

  /// Subscribes to the publisher `transform` returns for each value, when neither can fail, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (WrappedPublisher.Output) -> P
  )
    -> Deferred<Publishers.FlatMap<P, WrappedPublisher>>
  where P.Failure == Never, WrappedPublisher.Failure == Never {
    let make = createPublisher
    return Deferred { make().flatMap(maxPublishers: maxPublishers, transform) }
  }

  /// Subscribes to the publisher `transform` returns for each value, giving it this failure type, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (WrappedPublisher.Output) -> P
  )
    -> Deferred<
      Publishers.FlatMap<Publishers.SetFailureType<P, WrappedPublisher.Failure>, WrappedPublisher>
    > where P.Failure == Never
  {
    let make = createPublisher
    return Deferred { make().flatMap(maxPublishers: maxPublishers, transform) }
  }

  /// Follows the latest inner publisher, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func switchToLatest()
    -> Deferred<Publishers.SwitchToLatest<WrappedPublisher.Output, WrappedPublisher>>
  where
    WrappedPublisher.Output: Publisher, WrappedPublisher.Output.Failure == WrappedPublisher.Failure
  {
    let make = createPublisher
    return Deferred { make().switchToLatest() }
  }

  /// Follows the latest inner publisher, taking its failure type, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func switchToLatest()
    -> Deferred<
      Publishers.SwitchToLatest<
        WrappedPublisher.Output,
        Publishers.SetFailureType<WrappedPublisher, WrappedPublisher.Output.Failure>
      >
    > where WrappedPublisher.Output: Publisher, WrappedPublisher.Failure == Never
  {
    let make = createPublisher
    return Deferred { make().switchToLatest() }
  }

  /// Follows the latest inner publisher, giving inner publishers that cannot fail this failure type, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func switchToLatest()
    -> Deferred<
      Publishers.SwitchToLatest<
        Publishers.SetFailureType<WrappedPublisher.Output, WrappedPublisher.Failure>,
        Publishers.Map<
          WrappedPublisher,
          Publishers.SetFailureType<WrappedPublisher.Output, WrappedPublisher.Failure>
        >
      >
    > where WrappedPublisher.Output: Publisher, WrappedPublisher.Output.Failure == Never
  {
    let make = createPublisher
    return Deferred { make().switchToLatest() }
  }

  /// Follows the latest inner publisher, when neither can fail, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func switchToLatest()
    -> Deferred<Publishers.SwitchToLatest<WrappedPublisher.Output, WrappedPublisher>>
  where
    WrappedPublisher.Output: Publisher, WrappedPublisher.Failure == Never,
    WrappedPublisher.Output.Failure == Never
  {
    let make = createPublisher
    return Deferred { make().switchToLatest() }
  }

  /// Encodes each value with `encoder`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func encode<Coder: TopLevelEncoder>(encoder: Coder)
    -> Deferred<Publishers.Encode<WrappedPublisher, Coder>>
  where WrappedPublisher.Output: Encodable {
    let make = createPublisher
    return Deferred { make().encode(encoder: encoder) }
  }

  /// Decodes each value as `type` with `decoder`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder)
    -> Deferred<Publishers.Decode<WrappedPublisher, Item, Coder>>
  where WrappedPublisher.Output == Coder.Input {
    let make = createPublisher
    return Deferred { make().decode(type: type, decoder: decoder) }
  }

  /// Replaces a failure with the publisher `handler` returns, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func `catch`<P: Publisher>(_ handler: @escaping (WrappedPublisher.Failure) -> P)
    -> Deferred<Publishers.Catch<WrappedPublisher, P>> where WrappedPublisher.Output == P.Output
  {
    let make = createPublisher
    return Deferred { make().catch(handler) }
  }

  /// Measures the time between values on `scheduler`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
    -> Deferred<Publishers.MeasureInterval<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred { make().measureInterval(using: scheduler, options: options) }
  }

  /// Publishes a value once `dueTime` has passed without another, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  )
    -> Deferred<Publishers.Debounce<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred {
      make().debounce(for: dueTime, scheduler: scheduler, options: options)
    }
  }

  /// Delays every event by `interval` on `scheduler`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S, options: S.SchedulerOptions? = nil
  )
    -> Deferred<Publishers.Delay<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred {
      make().delay(for: interval, tolerance: tolerance, scheduler: scheduler, options: options)
    }
  }

  /// Publishes at most one value per `interval`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  )
    -> Deferred<Publishers.Throttle<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred {
      make().throttle(for: interval, scheduler: scheduler, latest: latest)
    }
  }

  /// Ends the stream when no event comes within `interval`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> WrappedPublisher.Failure)? = nil
  )
    -> Deferred<Publishers.Timeout<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred {
      make().timeout(interval, scheduler: scheduler, options: options, customError: customError)
    }
  }

  /// Subscribes to the publisher on `scheduler`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Deferred<Publishers.SubscribeOn<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred { make().subscribe(on: scheduler, options: options) }
  }

  /// Delivers events on `scheduler`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Deferred<Publishers.ReceiveOn<WrappedPublisher, S>>
  {
    let make = createPublisher
    return Deferred { make().receive(on: scheduler, options: options) }
  }

  /// Delivers events on the main thread through `UIScheduler`, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func receiveOnMain()
    -> Deferred<Publishers.ReceiveOn<WrappedPublisher, UIScheduler>>
  {
    let make = createPublisher
    return Deferred { make().receiveOnMain() }
  }

  /// Delivers events on the main queue, always asynchronously, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func receiveOnMainAsync()
    -> Deferred<Publishers.ReceiveOn<WrappedPublisher, DispatchQueue>>
  {
    let make = createPublisher
    return Deferred { make().receiveOnMainAsync() }
  }

  /// Delivers events on the main run loop, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func receiveOnMainRunLoop()
    -> Deferred<Publishers.ReceiveOn<WrappedPublisher, RunLoop>>
  {
    let make = createPublisher
    return Deferred { make().receiveOnMainRunLoop() }
  }

  /// Runs the given closures on the stream's events, inside a new `Deferred`.
  ///
  /// The original CombineEx's form: disfavoured, chosen where the `Deferred` type is named.
  @_disfavoredOverload
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((WrappedPublisher.Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<WrappedPublisher.Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil, receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  )
    -> Deferred<Publishers.HandleEvents<WrappedPublisher>>
  {
    let make = createPublisher
    return Deferred {
      make().handleEvents(
        receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
        receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
        receiveRequest: receiveRequest)
    }
  }
}
