import CombineExCore
import CombineExNetworking
import CombineExTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.DataTaskPublisher` against a real HTTP server on 127.0.0.1 that each test starts
/// (`LoopbackHTTPServer`), and against a session that performs no I/O (`StubSession`) for what a
/// server cannot show: when tasks are created, resumed and cancelled, and the result mapping.
/// Every wait is bounded (the recorder's timeout, or an explicit one).
@Suite("URLSession.DataTaskPublisher")
struct DataTaskPublisherTests {
  // MARK: Against a real server

  @Test("a successful request publishes the data and a 200 HTTPURLResponse, then finishes")
  func successPublishesDataAndResponse() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let recorder = makeSession().dataTaskPublisher(for: server.url("/greeting")).record()

    let completion = await recorder.completion
    #expect(completion == .finished)
    let values = recorder.values
    #expect(values.count == 1)
    #expect(values.first.map { String(decoding: $0.data, as: UTF8.self) } == "hello from /greeting")
    #expect(values.first?.response is HTTPURLResponse)
    #expect(values.first?.response.httpStatus == 200)
    #expect(values.first?.response.url == server.url("/greeting"))
  }

  @Test("an HTTP error status is a value, not a failure, as in Combine")
  func httpErrorStatusIsAValue() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let request = URLRequest(url: server.url("/status/404"))
    let recorder = makeSession().dataTaskPublisher(for: request).record()

    #expect(await recorder.completion == .finished)
    #expect(recorder.values.map(\.response.httpStatus) == [404])
    #expect(recorder.values.map { String(decoding: $0.data, as: UTF8.self) } == ["status 404"])
  }

  @Test("a refused connection fails with the session's URLError")
  func refusedConnectionFails() async throws {
    let refusing = try RefusingPort()
    let recorder = makeSession().dataTaskPublisher(for: refusing.url("/nobody")).record()

    let completion = await recorder.completion
    #expect(recorder.values.isEmpty)
    guard case .failure(let error) = completion else {
      Issue.record("expected a failure, got \(String(describing: completion))")
      return
    }
    #expect(error.code == .cannotConnectToHost)
    withExtendedLifetime(refusing) {}
  }

  @Test("cancelling while the request is in flight cancels the task and delivers nothing")
  func cancelInFlightCancelsTheTask() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let recorder = makeSession().dataTaskPublisher(for: server.url("/hang")).record()
    #expect(await waitFor(server.hangingRequestArrived), "the request never reached the server")

    recorder.cancel()

    // The session drops the connection once the task is cancelled; the server sees it.
    #expect(
      await waitFor(server.hangingConnectionDropped),
      "the server never saw the connection dropped: the task was not cancelled")
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("no request is made before the first demand; the first demand makes exactly one")
  func noRequestBeforeDemand() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let session = CountingSession(configuration: testConfiguration())
    let recorder = session.dataTaskPublisher(for: server.url("/lazy")).record(initialDemand: .none)
    #expect(session.dataTaskCount == 0)

    recorder.request(.max(1))
    recorder.request(.max(1))

    #expect(session.dataTaskCount == 1)
    #expect(await recorder.completion == .finished)
    #expect(recorder.values.count == 1)
    #expect(server.requestedPaths == ["/lazy"])
  }

  @Test("each subscription runs a request of its own")
  func eachSubscriptionRequestsAgain() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let publisher = makeSession().dataTaskPublisher(for: server.url("/twice"))

    let first = publisher.record()
    #expect(await first.completion == .finished)
    let second = publisher.record()
    #expect(await second.completion == .finished)

    #expect(server.requestedPaths == ["/twice", "/twice"])
  }

  @Test("the subscriber and the subscription are released after the completion")
  func releasedAfterCompletion() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let publisher = makeSession().dataTaskPublisher(for: server.url("/release"))
    // No demand until the subscription is captured: the task starts on the first request, so
    // a fast answer cannot end it (and release it) before the test holds a weak reference.
    var subscriber: SpySubscriber? = SpySubscriber(initialDemand: .none)
    publisher.subscribe(subscriber!)
    let subscription = WeakBox(subscriber?.subscription as AnyObject?)
    let weakSubscriber = WeakBox(subscriber)
    let completed = subscriber!.completed
    #expect(subscription.object != nil)
    subscriber!.request(.unlimited)

    #expect(await waitFor(completed), "no completion")
    #expect(subscriber?.completions.count == 1)
    subscriber = nil

    await expectEventually("the subscriber is released") { weakSubscriber.object == nil }
    await expectEventually("the subscription is released") { subscription.object == nil }
  }

  @Test("the subscriber and the subscription are released after a cancel in flight")
  func releasedAfterCancel() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let publisher = makeSession().dataTaskPublisher(for: server.url("/hang"))
    var subscriber: SpySubscriber? = SpySubscriber()
    publisher.subscribe(subscriber!)
    let subscription = WeakBox(subscriber?.subscription as AnyObject?)
    let weakSubscriber = WeakBox(subscriber)
    #expect(await waitFor(server.hangingRequestArrived), "the request never reached the server")

    subscriber?.cancel()
    #expect(subscriber?.values.isEmpty == true)
    #expect(subscriber?.completions.isEmpty == true)
    subscriber = nil

    // The publisher lets go of the subscriber in cancel(); the session keeps the completion
    // handler (and the subscription) until it reports the cancelled task.
    #expect(weakSubscriber.object == nil)
    await expectEventually("the subscription is released") { subscription.object == nil }
  }

  // MARK: Against a session without I/O

  @Test("the task is created and resumed on the first demand, and only then")
  func taskCreatedOnFirstDemand() throws {
    let session = StubSession.make()
    let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/a")!)
      .record(initialDemand: .none)
    #expect(session.events == [])

    recorder.request(.max(2))
    recorder.request(.max(1))
    #expect(session.events == ["dataTask", "resume"])

    recorder.cancel()
    #expect(session.events == ["dataTask", "resume", "cancel"])
    session.completeTasks(.success("late"))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a cancel before any demand creates no task, and later requests do nothing")
  func cancelBeforeDemand() {
    let session = StubSession.make(answeringOnResume: .success("unused"))
    let subscriber = SpySubscriber(initialDemand: .none)
    session.dataTaskPublisher(for: URL(string: "http://stub.invalid/b")!).subscribe(subscriber)
    let subscription = subscriber.subscription

    subscriber.cancel()
    subscription?.request(.max(1))
    subscription?.cancel()

    #expect(session.events == [])
    #expect(subscriber.values.isEmpty)
    #expect(subscriber.completions.isEmpty)
  }

  @Test("only the first result counts: later calls of the completion handler are ignored")
  func onlyTheFirstResultCounts() {
    let session = StubSession.make()
    let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/c")!)
      .record(initialDemand: .max(1))

    session.completeTasks(.success("first"))
    session.completeTasks(.success("second"))
    session.completeTasks(.failure(URLError(.timedOut)))

    #expect(recorder.values.map { String(decoding: $0.data, as: UTF8.self) } == ["first"])
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.completionCount == 1)
  }

  @Test("a URLError from the session fails the publisher with that error")
  func urlErrorFails() {
    let error = URLError(.cannotParseResponse, userInfo: ["key": 1])
    let session = StubSession.make(answeringOnResume: .failure(error))
    let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/d")!).record()

    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(error))
  }

  @Test("an NSError of the URL error domain fails with the URLError of the same code")
  func urlDomainNSErrorFails() {
    let error = NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue)
    let session = StubSession.make(answeringOnResume: .failure(error))
    let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/e")!).record()

    guard case .failure(let failure) = recorder.receivedCompletion else {
      Issue.record("expected a failure: \(recorder.events)")
      return
    }
    #expect(failure.code == .timedOut)
  }

  @Test("an error of another kind, or no response and no error, fails with URLError(.unknown)")
  func otherErrorsFailWithUnknown() {
    struct Unrelated: Error {}
    let outcomes: [StubSession.Outcome] = [
      .failure(Unrelated()),
      StubSession.Outcome(data: Data("x".utf8), response: nil, error: nil),
      StubSession.Outcome(data: nil, response: nil, error: nil),
    ]
    for outcome in outcomes {
      let session = StubSession.make(answeringOnResume: outcome)
      let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/f")!)
        .record()
      #expect(recorder.values.isEmpty)
      #expect(recorder.receivedCompletion == .failure(URLError(.unknown)))
    }
  }

  @Test("a response without data publishes empty data")
  func responseWithoutData() throws {
    let response = try #require(StubSession.Outcome.success("").response)
    let session = StubSession.make(
      answeringOnResume: StubSession.Outcome(data: nil, response: response, error: nil))
    let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/g")!).record()

    #expect(recorder.values.map(\.data) == [Data()])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a cancel from inside receive(_:) keeps .finished from following the value")
  func cancelInsideReceiveStopsTheCompletion() {
    let session = StubSession.make(answeringOnResume: .success("once"))
    let subscriber = SpySubscriber(cancelsOnValue: true)
    session.dataTaskPublisher(for: URL(string: "http://stub.invalid/h")!).subscribe(subscriber)

    #expect(subscriber.values.count == 1)
    #expect(subscriber.completions.isEmpty)
  }

  @Test("the subscription describes itself as DataTaskPublisher, with Combine's mirror")
  func descriptionAndMirror() throws {
    let session = StubSession.make()
    let subscriber = SpySubscriber(initialDemand: .none)
    session.dataTaskPublisher(for: URL(string: "http://stub.invalid/i")!).subscribe(subscriber)
    let subscription = try #require(subscriber.subscription)

    #expect(String(describing: subscription) == "DataTaskPublisher")
    let mirror = Mirror(reflecting: subscription)
    #expect(mirror.children.map { $0.label } == ["task", "downstream", "parent", "demand"])
    #expect(mirror.children.map { String(describing: $0.value) }.last == "max(0)")
    #expect(
      ((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String)
        == "DataTaskPublisher")
  }

  @Test("the publisher keeps the request and the session it was made with")
  func publisherProperties() {
    let session = StubSession.make()
    let url = URL(string: "http://stub.invalid/j")!
    var request = URLRequest(url: url)
    request.httpMethod = "HEAD"

    #expect(session.dataTaskPublisher(for: url).request == URLRequest(url: url))
    #expect(session.dataTaskPublisher(for: request).request == request)
    #expect(session.dataTaskPublisher(for: url).session === session)
  }

  @Test("requesting .none stops the program with a message, as in Combine")
  func zeroDemandStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let session = StubSession.make()
      let recorder = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/k")!)
        .record(initialDemand: .none)
      recorder.request(.none)
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: URLSession.DataTaskPublisher") == true)
  }
}
