#if canImport(XCTest)
  import CombineEx
  import CombineExTesting
  import Testing  // for the `#_sourceLocation` default arguments, not to run Swift Testing tests
  import XCTest

  /// The recorder and the marble helpers inside an XCTest test, where no Swift Testing test is
  /// running: their failures go through `XCTFail`, at the caller's file and line (for
  /// `await recorder.completion`, the line that made the recorder). As in `TestStoreXCTests`,
  /// the test case catches the failures while `capturing` is set, and checks them.
  final class HelpersXCTests: XCTestCase {
    private var capturing = false
    private var captured: [(description: String, file: String, line: Int)] = []

    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      if capturing {
        captured.append((description, filePath, lineNumber))
      } else {
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }

    func testRecorderTimeoutsAreReportedThroughXCTFail() async {
      let subject = PassthroughSubject<Int, Never>()
      let recordLine = #line + 1
      let recorder = subject.record(timeout: .milliseconds(50))
      capturing = true
      let nextLine = #line + 1
      let value = await recorder.next()
      let completion = await recorder.completion
      capturing = false
      XCTAssertNil(value)
      XCTAssertNil(completion)
      XCTAssertEqual(captured.map(\.line), [nextLine, recordLine])
      XCTAssertEqual(captured.map(\.file), [#filePath, #filePath])
      XCTAssertTrue(captured.first?.description.contains("waiting for value #1") == true)
      XCTAssertTrue(captured.last?.description.contains("waiting for the completion") == true)
    }

    func testMarbleMismatchIsReportedThroughXCTFail() {
      let scheduler = DispatchQueue.test
      let input = scheduler.hotPublisher("-a-b-|")
      capturing = true
      let line = #line + 1
      scheduler.expect(input.filter { $0 == "a" }, toProduce: "-a-b-|")
      capturing = false
      XCTAssertEqual(captured.count, 1)
      XCTAssertEqual(captured.first?.line, line)
      XCTAssertEqual(captured.first?.file, #filePath)
      XCTAssertTrue(captured.first?.description.contains("actual:   -a---|") == true)
    }

    func testMalformedDiagramIsReportedThroughXCTFail() {
      let scheduler = DispatchQueue.test
      capturing = true
      let line = #line + 1
      _ = scheduler.hotPublisher("-(a")
      capturing = false
      XCTAssertEqual(captured.count, 1)
      XCTAssertEqual(captured.first?.line, line)
      XCTAssertTrue(captured.first?.description.contains("'(' is never closed") == true)
    }

    func testPassingHelpersRecordNoFailure() async {
      let scheduler = DispatchQueue.test
      capturing = true
      let input = scheduler.hotPublisher("-a-b-|")
      scheduler.expect(input, toProduce: "-a-b-|")
      let recorder = Just(1).record()
      let value = await recorder.next()
      let completion = await recorder.completion
      capturing = false
      XCTAssertEqual(value, 1)
      XCTAssertEqual(completion, .finished)
      XCTAssertTrue(captured.isEmpty)
    }
  }
#endif
