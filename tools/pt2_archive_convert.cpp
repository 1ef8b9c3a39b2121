// pt2_archive_convert: the command line of the test tool
// tests/support/pt2_archive_converter.h, which rewrites legacy .pt2 files
// (what torch 2.1-2.7's torch.export.save writes) into the PT2-archive layout
// of torch 2.8+ (../shared/docs/PT2-FORMAT.md §4). For trying the loader on
// that layout by hand; the test suite calls the converter directly.
//   pt2_archive_convert OUT.pt2 [--weights raw|pickled-files|pickled-dict] [--big-endian]
//                       [--root NAME] IN.pt2[:MODEL] ...
// Each IN becomes models/<MODEL>.json (default "model"); the root folder
// defaults to OUT's base name, as torch's writer names it.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cases.h"
#include "pt2_archive_converter.h"
#include "util/error.h"

using namespace pt2web;

namespace {

int usage() {
  std::cerr << "usage: pt2_archive_convert OUT.pt2 [--weights raw|pickled-files|pickled-dict] [--big-endian]\n"
               "                           [--root NAME] IN.pt2[:MODEL] ...\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  std::string out = argv[1];
  testing::ArchiveOptions options;
  options.root = std::filesystem::path(out).stem().string();
  std::vector<testing::ArchiveModel> models;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--big-endian") {
      options.big_endian = true;
    } else if ((arg == "--weights" || arg == "--root") && i + 1 < argc) {
      std::string value = argv[++i];
      if (arg == "--root") options.root = value;
      else if (value == "raw") options.weights = testing::WeightsForm::Raw;
      else if (value == "pickled-files") options.weights = testing::WeightsForm::PickledFiles;
      else if (value == "pickled-dict") options.weights = testing::WeightsForm::PickledDict;
      else return usage();
    } else {
      size_t colon = arg.rfind(':');
      bool named = colon != std::string::npos && colon > 1;  // not a Windows drive letter
      std::string path = named ? arg.substr(0, colon) : arg;
      std::string name = named ? arg.substr(colon + 1) : "model";
      models.push_back({name, std::make_shared<const std::vector<uint8_t>>(testing::read_file(path))});
    }
  }
  try {
    std::vector<uint8_t> bytes = testing::convert_to_pt2_archive(models, options);
    std::ofstream file(out, std::ios::binary);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file) throw std::runtime_error("cannot write " + out);
  } catch (const std::exception& e) {
    std::cerr << "pt2_archive_convert: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
