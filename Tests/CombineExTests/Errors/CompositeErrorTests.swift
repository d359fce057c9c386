import CombineEx
import CombineExTesting
import Foundation
import Testing

// MARK: - Fixtures

private struct NetworkError: Error, Equatable { var code = 0 }
private struct ParseError: Error, Equatable {}
private struct OtherError: Error, Equatable {}

/// A class hierarchy: a mapping for the base class claims its subclasses too.
private class BaseClassError: Error, @unchecked Sendable {}
private final class SubclassError: BaseClassError, @unchecked Sendable {}

private enum LoadError: CompositeError {
  case network(NetworkError)
  case parse(ParseError)
  case base(BaseClassError)
  case unexpected(any Error)

  static let errorMap = CompositeErrorMap<LoadError>()
    .mapping(NetworkError.self) { .network($0) }
    .mapping(ParseError.self) { .parse($0) }
    .mapping(BaseClassError.self) { .base($0) }

  /// A short name of the case, for comparisons in expectations.
  var name: String {
    switch self {
    case .network(let error): "network(\(error.code))"
    case .parse: "parse"
    case .base(let error): error is SubclassError ? "base(subclass)" : "base"
    case .unexpected(let error): "unexpected(\(type(of: error)))"
    }
  }
}

/// Two mappings claim `NetworkError`: the first one added wins.
private enum OrderedError: CompositeError {
  case first
  case second
  case unexpected(any Error)

  static let errorMap = CompositeErrorMap<OrderedError>()
    .mapping(NetworkError.self) { _ in .first }
    .mapping(NetworkError.self) { _ in .second }
}

/// A composite error whose map the stress test grows while resolving through it.
private enum GrowingError: CompositeError {
  case network
  case other
  case unexpected(any Error)

  static let errorMap = CompositeErrorMap<GrowingError>()
    .mapping(NetworkError.self) { _ in .network }
}

/// A composite error without mappings: everything but itself is unexpected.
private enum BareError: CompositeError {
  case known
  case unexpected(any Error)

  static let errorMap = CompositeErrorMap<BareError>()
}

private func name(of completion: Subscribers.Completion<LoadError>?) -> String {
  switch completion {
  case nil: "none"
  case .finished: "finished"
  case .failure(let error): "failure(\(error.name))"
  }
}

// MARK: - CompositeError and CompositeErrorMap

@Suite("CompositeError and CompositeErrorMap")
struct CompositeErrorTests {
  @Test("wrappingAllCases files a mapped error under its case")
  func mappedError() {
    #expect(LoadError.wrappingAllCases(NetworkError(code: 7)).name == "network(7)")
    #expect(LoadError.wrappingAllCases(ParseError()).name == "parse")
  }

  @Test("an error no mapping claims becomes unexpected, keeping the original error")
  func unexpectedError() {
    let wrapped = LoadError.wrappingAllCases(OtherError())
    guard case .unexpected(let original) = wrapped else {
      Issue.record("expected .unexpected, got \(wrapped)")
      return
    }
    #expect(original as? OtherError == OtherError())
  }

  @Test("an error that already is the composite type passes through unchanged")
  func alreadyWrapped() {
    #expect(LoadError.wrappingAllCases(LoadError.parse(ParseError())).name == "parse")
    #expect(
      LoadError.wrappingWithSelf(LoadError.network(NetworkError(code: 3)))?.name == "network(3)")
    // Not wrapped a second time, even as an `any Error`.
    let erased: any Error = LoadError.network(NetworkError(code: 4))
    #expect(LoadError.wrappingAllCases(erased).name == "network(4)")
  }

  @Test("wrappingWithSelf returns nil for an error no mapping claims")
  func wrappingWithSelfNil() {
    #expect(LoadError.wrappingWithSelf(OtherError()) == nil)
    #expect(LoadError.wrappingWithSelf(ParseError())?.name == "parse")
  }

  @Test("the first mapping added that matches wins")
  func firstMatchWins() {
    guard case .first = OrderedError.wrappingAllCases(NetworkError()) else {
      Issue.record("the mapping added first must win")
      return
    }
  }

  @Test("a mapping for a class claims its subclasses, as `as?` does")
  func subclassMatches() {
    #expect(LoadError.wrappingAllCases(SubclassError()).name == "base(subclass)")
  }

  @Test("an empty map claims nothing: everything but the type itself is unexpected")
  func emptyMap() {
    guard case .unexpected = BareError.wrappingAllCases(NetworkError()) else {
      Issue.record("an empty map must claim nothing")
      return
    }
    guard case .known = BareError.wrappingAllCases(BareError.known) else {
      Issue.record("the composite type itself must pass through")
      return
    }
  }

  @Test("mapping returns the map itself, so a map built in steps keeps every mapping")
  func mappingReturnsSelf() {
    let map = CompositeErrorMap<BareError>()
    let returned = map.mapping(NetworkError.self) { _ in .known }
    #expect(returned === map)
    _ = map.mapping(ParseError.self) { _ in .known }
    #expect(map.mapping(OtherError.self) { _ in .known } === map)
  }

  @Test("stress: mappings added and errors resolved from 8 threads at once")
  func stressConcurrentMapping() async {
    let resolved = LockedBox(0)
    await concurrentPerform(800) { iteration in
      if iteration.isMultiple(of: 4) {
        // Grows the shared map while other threads resolve through it.
        _ = GrowingError.errorMap.mapping(OtherError.self) { _ in .other }
      } else if case .network = GrowingError.wrappingAllCases(NetworkError()) {
        resolved.withLock { $0 += 1 }
      }
    }
    #expect(resolved.withLock { $0 } == 600)
    guard case .other = GrowingError.wrappingAllCases(OtherError()) else {
      Issue.record("the mappings added concurrently must be kept")
      return
    }
  }
}

// MARK: - wrapWithCompositeFailure

@Suite("wrapWithCompositeFailure on publishers and futures")
struct WrapWithCompositeFailureTests {
  @Test("a publisher's failure is filed under its case; values and finished pass through")
  func publisherFailure() {
    let subject = PassthroughSubject<Int, NetworkError>()
    let recorder: TestSubscriber<Int, LoadError> = subject.wrapWithCompositeFailure().record()
    subject.send(1)
    subject.send(completion: .failure(NetworkError(code: 5)))
    #expect(recorder.values == [1])
    #expect(name(of: recorder.receivedCompletion) == "failure(network(5))")

    let finishing = Just(2).setFailureType(to: ParseError.self)
      .wrapWithCompositeFailure(LoadError.self)
      .record()
    #expect(finishing.values == [2])
    #expect(name(of: finishing.receivedCompletion) == "finished")
  }

  @Test("the explicit form names the type; an unmapped failure becomes unexpected")
  func explicitType() {
    let recorder = Fail<Int, OtherError>(error: OtherError())
      .wrapWithCompositeFailure(LoadError.self)
      .record()
    #expect(name(of: recorder.receivedCompletion) == "failure(unexpected(OtherError))")
  }

  @Test("the result is Publishers.MapError, and cancel reaches the upstream")
  func publisherTypeAndCancel() {
    let cancels = RunCounter()
    let upstream = PassthroughSubject<Int, ParseError>()
    let wrapped = upstream.handleEvents(receiveCancel: { cancels.increment() })
      .wrapWithCompositeFailure(LoadError.self)
    #expect(
      type(of: wrapped)
        == Publishers.MapError<
          Publishers.HandleEvents<PassthroughSubject<Int, ParseError>>, LoadError
        >.self)
    let recorder = wrapped.record()
    recorder.cancel()
    upstream.send(1)
    #expect(cancels.value == 1)
    #expect(recorder.values.isEmpty)
  }

  @Test("on a cold publisher the result stays cold: each subscription runs the factory")
  func coldPublisher() {
    let runs = RunCounter()
    let cold: AnyDeferredPublisher<Int, LoadError> =
      countingDeferred([1, 2], failure: ParseError.self, counter: runs)
      .wrapWithCompositeFailure(LoadError.self)
      .eraseToAnyDeferredPublisher()
    let inferred: AnyDeferredPublisher<Int, LoadError> =
      countingDeferred([3], failure: ParseError.self, counter: runs)
      .wrapWithCompositeFailure()
      .eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    #expect(cold.record().values == [1, 2])
    #expect(cold.record().values == [1, 2])
    #expect(inferred.record().values == [3])
    #expect(runs.value == 3)
  }

  @Test("on a future it returns a DeferredFuture whose failure is filed under its case")
  func futureFailure() {
    let future: DeferredFuture<Int, LoadError> = DeferredFuture<Int, ParseError>
      .fail(ParseError())
      .wrapWithCompositeFailure()
    #expect(name(of: future.record().receivedCompletion) == "failure(parse)")

    let explicit = DeferredFuture<Int, NetworkError>.fail(NetworkError(code: 9))
      .wrapWithCompositeFailure(LoadError.self)
      .eraseToAnyDeferredFuture()
    #expect(name(of: explicit.record().receivedCompletion) == "failure(network(9))")
  }

  @Test("on a future the value passes through and the work runs once per subscription")
  func futureIsCold() {
    let work = ManualWork<Int, ParseError>()
    let wrapped: AnyDeferredFuture<Int, LoadError> = work.future
      .wrapWithCompositeFailure()
      .eraseToAnyDeferredFuture()
    #expect(work.runs == 0)
    let first = wrapped.record()
    work.fulfill(.success(4))
    #expect(first.values == [4])
    #expect(name(of: first.receivedCompletion) == "finished")
    _ = wrapped.record()
    #expect(work.runs == 2)
  }

  @Test("without context a future picks the Publisher form (the future form is disfavoured)")
  func futureOverloadResolution() {
    let future = DeferredFuture<Int, ParseError>.just(1)
    let plain = future.wrapWithCompositeFailure(LoadError.self)
    #expect(
      type(of: plain) == Publishers.MapError<DeferredFuture<Int, ParseError>, LoadError>.self)
    let asFuture: DeferredFuture<Int, LoadError> = future.wrapWithCompositeFailure(LoadError.self)
    #expect(asFuture.record().values == [1])
  }
}
