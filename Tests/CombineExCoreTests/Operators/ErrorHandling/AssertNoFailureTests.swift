import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("assertNoFailure")
struct AssertNoFailureTests {
  @Test("republishes values and the finish")
  func republishes() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.assertNoFailure().record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an empty upstream finishes")
  func emptyUpstream() {
    let recorder = Empty<Int, TestError>().assertNoFailure().record()
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("keeps the prefix, file and line it was given")
  func properties() {
    let publisher = Empty<Int, TestError>().assertNoFailure("checked", file: "Here.swift", line: 7)
    #expect(publisher.prefix == "checked")
    #expect(publisher.file.description == "Here.swift")
    #expect(publisher.line == 7)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
      .assertNoFailure()
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("demand and cancel go straight to the upstream")
  func demandAndCancelPassThrough() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.assertNoFailure().record(initialDemand: .max(1))
    recorder.cancel()
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.cancels == 1)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, TestError>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.assertNoFailure().sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a failure stops the program with a message naming the prefix, error, file and line")
  func failureStopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subject = PassthroughSubject<Int, TestError>()
      let cancellable = subject.assertNoFailure("settings", file: "Settings.swift", line: 42)
        .sink { _ in }
      subject.send(completion: .failure(TestError(7)))
      withExtendedLifetime(cancellable) {}
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("settings: TestError(7)"))
    #expect(message.contains("Settings.swift:42"))
  }

  @Test("without a prefix the message is the error alone")
  func failureWithoutPrefix() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Fail<Int, TestError>(error: TestError(1)).assertNoFailure().sink { _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Fatal error: TestError(1)"))
  }
}
